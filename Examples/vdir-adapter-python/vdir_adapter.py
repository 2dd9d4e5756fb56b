#!/usr/bin/env python3
"""vdir_adapter.py: the conformance kit's adapter for the vdir example, in Python (stdlib only).

It speaks the kit's line protocol (docs/conformance-kit.md, "Adapter protocol"): one JSON request per line on
stdin, one JSON reply per line on stdout, every message with "protocol": 1. The store is the
vdir example's (Examples/VdirStore/VdirLayout.swift): <App Group>/vdir/<name>.vcf, one vCard 3.0
per contact, and <App Group>/vdir-tracking/{generation, changes-<generation>} for change tracking.

Run by the kit as:  vdir_adapter.py --app-group PATH   (CONTACT_PROVIDER_APP_GROUP is set too)
Check it with:      contacts-host conformance --extension .build/debug/vdir-provider \
                        --backend "exec:python3 Examples/vdir-adapter-python/vdir_adapter.py"
"""

import base64
import json
import os
import sys
import uuid
from urllib.parse import quote, unquote

PROTOCOL = 1


class AdapterError(Exception):
    """A request that cannot be done; its message goes back to the kit."""


# ---- layout -----------------------------------------------------------------------------------

class Layout:
    def __init__(self, root):
        self.cards = os.path.join(root, "vdir")
        self.tracking = os.path.join(root, "vdir-tracking")
        self.generation_file = os.path.join(self.tracking, "generation")

    def change_log(self, generation):
        return os.path.join(self.tracking, "changes-" + generation)

    def card(self, name):
        return os.path.join(self.cards, name + ".vcf")


def file_name(identifier):
    """The escaped identifier, as VdirLayout.name(of:) writes it."""
    return quote(identifier, safe="-_.~")


def write_atomically(path, data):
    temporary = path + ".tmp-" + uuid.uuid4().hex
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def current_generation(layout):
    try:
        with open(layout.generation_file, encoding="utf-8") as handle:
            text = handle.read().strip()
            return text or None
    except FileNotFoundError:
        return None


def reset(layout):
    os.makedirs(layout.cards, exist_ok=True)
    os.makedirs(layout.tracking, exist_ok=True)
    for name in os.listdir(layout.cards):
        if name.endswith(".vcf"):
            os.unlink(os.path.join(layout.cards, name))
    old = current_generation(layout)
    write_atomically(layout.generation_file, (str(uuid.uuid4()).upper() + "\n").encode())
    if old:
        try:
            os.unlink(layout.change_log(old))
        except FileNotFoundError:
            pass


def append_change(layout, line):
    generation = current_generation(layout)
    if generation is None:
        reset(layout)
        generation = current_generation(layout)
    fd = os.open(layout.change_log(generation), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (line + "\n").encode())  # one write: readers see whole lines or none
        os.fsync(fd)
    finally:
        os.close(fd)


# ---- vCard 3.0 ----------------------------------------------------------------------------------

def escape(text, separators=True):
    text = text.replace("\\", "\\\\").replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    if separators:
        text = text.replace(",", "\\,").replace(";", "\\;")
    return text


def unescape(text):
    out, index = [], 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            following = text[index + 1]
            out.append("\n" if following in "nN" else following)
            index += 2
        else:
            out.append(char)
            index += 1
    return "".join(out)


def split_unescaped(text, separator):
    parts, current, index = [], [], 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            current.append(text[index:index + 2])
            index += 2
            continue
        if char == separator:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        index += 1
    parts.append("".join(current))
    return parts


def display_name(contact):
    name = " ".join(p for p in (contact.get(k, "") for k in
                                ("namePrefix", "givenName", "middleName", "familyName", "nameSuffix")) if p)
    return name or contact.get("organizationName", "")


def encode_card(contact):
    lines = ["BEGIN:VCARD", "VERSION:3.0", "UID:" + escape(contact["identifier"])]
    get = lambda key: contact.get(key, "")
    lines.append("N:" + ";".join(escape(get(k)) for k in
                                 ("familyName", "givenName", "middleName", "namePrefix", "nameSuffix")))
    lines.append("FN:" + escape(display_name(contact)))
    if get("nickname"):
        lines.append("NICKNAME:" + escape(get("nickname")))
    if get("organizationName") or get("departmentName"):
        org = escape(get("organizationName"))
        if get("departmentName"):
            org += ";" + escape(get("departmentName"))
        lines.append("ORG:" + org)
    if get("jobTitle"):
        lines.append("TITLE:" + escape(get("jobTitle")))
    group = 0

    def labeled(name, label, value):
        nonlocal group
        if label:  # every label as Apple's grouped X-ABLabel: it reads back verbatim
            group += 1
            lines.append("item%d.%s:%s" % (group, name, value))
            lines.append("item%d.X-ABLabel:%s" % (group, escape(label)))
        else:
            lines.append("%s:%s" % (name, value))

    for phone in contact.get("phoneNumbers", []):
        if phone.get("value"):
            labeled("TEL", phone.get("label"), escape(phone["value"], separators=False))
    for email in contact.get("emailAddresses", []):
        if email.get("value"):
            labeled("EMAIL", email.get("label"), escape(email["value"]))
    for address in contact.get("postalAddresses", []):
        group += 1
        parts = ["", ""] + [address.get(k, "") for k in ("street", "city", "state", "postalCode", "country")]
        lines.append("item%d.ADR:%s" % (group, ";".join(escape(p) for p in parts)))
        if address.get("label"):
            lines.append("item%d.X-ABLabel:%s" % (group, escape(address["label"])))
        for key, prop in (("isoCountryCode", "X-ABADR"), ("subLocality", "X-APPLE-SUBLOCALITY"),
                          ("subAdministrativeArea", "X-APPLE-SUBADMINISTRATIVEAREA")):
            if address.get(key):
                lines.append("item%d.%s:%s" % (group, prop, escape(address[key])))
    for url in contact.get("urlAddresses", []):
        if url.get("value"):
            labeled("URL", url.get("label"), escape(url["value"], separators=False))
    birthday = contact.get("birthday")
    if birthday:
        if birthday.startswith("--"):
            lines.append("BDAY;X-APPLE-OMIT-YEAR=1604:1604-" + birthday[2:])
        else:
            lines.append("BDAY:" + birthday)
    if get("note"):
        lines.append("NOTE:" + escape(get("note")))
    if contact.get("imageData"):
        lines.append("PHOTO;ENCODING=b;TYPE=JPEG:" + contact["imageData"])
    lines.append("END:VCARD")
    return ("\r\n".join(fold(line) for line in lines) + "\r\n").encode("utf-8")


def fold(line):
    """Folds at 75 octets without splitting a UTF-8 sequence."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return line
    pieces, start, limit = [], 0, 75
    while start < len(data):
        end = min(start + limit, len(data))
        while end < len(data) and (data[end] & 0xC0) == 0x80:
            end -= 1
        pieces.append(data[start:end].decode("utf-8"))
        start, limit = end, 74
    return "\r\n ".join(pieces)


def decode_card(data, identifier):
    """Reads what encode_card writes (unfolded, grouped labels) back into contact JSON."""
    text = data.decode("utf-8").replace("\r\n", "\n")
    text = text.replace("\n ", "").replace("\n\t", "")
    properties = []
    for line in text.split("\n"):
        if not line or ":" not in line:
            continue
        head, value = line.split(":", 1)
        head_parts = head.split(";")
        name, params = head_parts[0], head_parts[1:]
        group = None
        if "." in name:
            group, name = name.split(".", 1)
        properties.append((group, name.upper(), params, value))
    labels = {g: unescape(v) for g, n, _, v in properties if g and n == "X-ABLABEL"}
    extras = {}
    for g, n, _, v in properties:
        if g and n in ("X-ABADR", "X-APPLE-SUBLOCALITY", "X-APPLE-SUBADMINISTRATIVEAREA"):
            extras.setdefault(g, {})[n] = unescape(v)
    contact = {"identifier": identifier}

    def put(key, value):
        if value:
            contact[key] = value

    for group, name, params, value in properties:
        label = labels.get(group) if group else None
        if name == "N":
            parts = [unescape(p) for p in split_unescaped(value, ";")] + [""] * 5
            for key, part in zip(("familyName", "givenName", "middleName", "namePrefix", "nameSuffix"), parts):
                put(key, part)
        elif name == "NICKNAME":
            put("nickname", unescape(value))
        elif name == "ORG":
            parts = [unescape(p) for p in split_unescaped(value, ";")] + [""]
            put("organizationName", parts[0])
            put("departmentName", parts[1])
        elif name == "TITLE":
            put("jobTitle", unescape(value))
        elif name in ("TEL", "EMAIL", "URL"):
            key = {"TEL": "phoneNumbers", "EMAIL": "emailAddresses", "URL": "urlAddresses"}[name]
            entry = {"value": unescape(value)}
            if label:
                entry["label"] = label
            contact.setdefault(key, []).append(entry)
        elif name == "ADR":
            parts = [unescape(p) for p in split_unescaped(value, ";")] + [""] * 7
            address = {}
            if label:
                address["label"] = label
            for key, part in zip(("street", "city", "state", "postalCode", "country"), parts[2:7]):
                if part:
                    address[key] = part
            more = extras.get(group, {})
            for key, prop in (("isoCountryCode", "X-ABADR"), ("subLocality", "X-APPLE-SUBLOCALITY"),
                              ("subAdministrativeArea", "X-APPLE-SUBADMINISTRATIVEAREA")):
                if more.get(prop):
                    address[key] = more[prop]
            contact.setdefault("postalAddresses", []).append(address)
        elif name == "BDAY":
            if any(p.upper().startswith("X-APPLE-OMIT-YEAR") for p in params):
                contact["birthday"] = "--" + value[5:]
            else:
                contact["birthday"] = value
        elif name == "NOTE":
            put("note", unescape(value))
        elif name == "PHOTO":
            put("imageData", value)
    return contact


# ---- the protocol -------------------------------------------------------------------------------

# The cards break-store cut in half, whole, until repair-store puts them back.
BROKEN_CARDS = {}


def handle(request, layout):
    if request.get("protocol") != PROTOCOL:
        raise AdapterError("protocol %r is not %d" % (request.get("protocol"), PROTOCOL))
    op = request.get("op")
    if op == "hello":
        return {"adapter": "vdir_adapter.py", "capabilities": ["break-store"]}
    if op == "break-store":
        # Every card half written, as a writer that saves in place leaves it for a moment (rule T1).
        names = [n for n in os.listdir(layout.cards) if n.endswith(".vcf")] if os.path.isdir(layout.cards) else []
        for name in names:
            path = os.path.join(layout.cards, name)
            with open(path, "rb") as handle:
                data = handle.read()
            BROKEN_CARDS[path] = data
            with open(path, "wb") as handle:
                handle.write(data[: len(data) // 2])
        return {"how": "every card of the vdir half written"}
    if op == "repair-store":
        for path, data in BROKEN_CARDS.items():
            write_atomically(path, data)
        BROKEN_CARDS.clear()
        return {}
    if op == "reset":
        reset(layout)
        return {}
    if op in ("add", "update"):
        contact = request.get("contact")
        if not isinstance(contact, dict) or not isinstance(contact.get("identifier"), str):
            raise AdapterError("%s needs a contact object with an identifier" % op)
        name = file_name(contact["identifier"])
        exists = os.path.exists(layout.card(name))
        if op == "add" and exists:
            raise AdapterError("contact %s already exists" % contact["identifier"])
        if op == "update" and not exists:
            raise AdapterError("no contact %s to update" % contact["identifier"])
        if current_generation(layout) is None:
            reset(layout)
        write_atomically(layout.card(name), encode_card(contact))
        append_change(layout, "P " + name)
        return {}
    if op == "delete":
        identifier = request.get("identifier")
        if not isinstance(identifier, str):
            raise AdapterError("delete needs \"identifier\"")
        name = file_name(identifier)
        try:
            os.unlink(layout.card(name))
        except FileNotFoundError:
            raise AdapterError("no contact %s to delete" % identifier)
        append_change(layout, "D " + name)
        return {}
    if op == "list":
        names = sorted(n for n in os.listdir(layout.cards) if n.endswith(".vcf")) if os.path.isdir(layout.cards) else []
        contacts = []
        for name in names:
            with open(os.path.join(layout.cards, name), "rb") as handle:
                contacts.append(decode_card(handle.read(), unquote(name[:-4])))
        return {"contacts": contacts}
    raise AdapterError("unknown op %r" % op)


def main(arguments):
    root = None
    if "--app-group" in arguments and arguments.index("--app-group") + 1 < len(arguments):
        root = arguments[arguments.index("--app-group") + 1]
    root = root or os.environ.get("CONTACT_PROVIDER_APP_GROUP")
    if not root:
        sys.stderr.write("vdir_adapter.py: no App Group (pass --app-group PATH)\n")
        return 2
    layout = Layout(root)
    for line in sys.stdin:
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise AdapterError("not one JSON object")
            reply = dict(handle(request, layout), ok=True)
        except (AdapterError, OSError, ValueError) as error:
            reply = {"ok": False, "error": {"message": str(error)}}
        reply["protocol"] = PROTOCOL
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
