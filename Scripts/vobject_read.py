#!/usr/bin/env python3
"""Reads vCards with the independent `vobject` library and prints what it read as JSON.

Used by the ContactsInterop tests to cross-check the exporter: `python3 vobject_read.py FILE`
prints a JSON array with one object per card. List values stay lists (vobject's reading), so the
test can check that what the exporter meant as several values is read as several values.

vobject 0.9.9 reads a 4.0 PHOTO as text and cuts its data: URI at the comma; for those the raw
value (unfolded and parsed into parameters by vobject) is decoded here as RFC 2397 says.
"""
import base64
import io
import json
import sys
import urllib.parse

import vobject
import vobject.icalendar


def as_list(value):
    if isinstance(value, list):
        return value
    return [value]


def raw_cards(text):
    """Per card, {name: [raw value, ...]} from vobject's own unfolding and content-line parser,
    before any value decoding (vobject keeps only the first value of a NICKNAME list)."""
    cards = []
    depth = 0
    for line, _number in vobject.base.getLogicalLines(io.StringIO(text)):
        name, _params, value, _group = vobject.base.parseLine(line)
        name = name.lower()
        if name == "begin" and value.lower() == "vcard":
            depth += 1
            if depth == 1:
                cards.append({})
            continue
        if name == "end" and value.lower() == "vcard":
            depth -= 1
            continue
        if depth == 1:
            cards[-1].setdefault(name, []).append(value)
    return cards


def raw_values(raw_card, name):
    return raw_card.get(name, [])


def data_uri(value):
    head, _, payload = value.partition(",")
    if head.lower().endswith(";base64"):
        return base64.b64decode(payload)
    return urllib.parse.unquote_to_bytes(payload)


def card_json(card, raw_card):
    out = {"labels": {}, "x": {}}
    version = card.contents["version"][0].value if "version" in card.contents else ""
    out["version"] = version
    for line in card.lines():
        name = line.name.lower()
        if name == "x-ablabel":
            out["labels"][line.group] = line.value
    if "uid" in card.contents:
        out["uid"] = card.uid.value
    if "fn" in card.contents:
        out["fn"] = card.fn.value
    if "n" in card.contents:
        n = card.n.value
        out["n"] = {
            "family": as_list(n.family), "given": as_list(n.given), "additional": as_list(n.additional),
            "prefix": as_list(n.prefix), "suffix": as_list(n.suffix),
        }
    # vobject keeps only the first value of a NICKNAME list; read the list from the raw line.
    out["nickname"] = [
        value for raw in raw_values(raw_card, "nickname") for value in vobject.icalendar.stringToTextValues(raw)
    ]
    if "org" in card.contents:
        out["org"] = as_list(card.org.value)
    if "title" in card.contents:
        out["title"] = card.title.value
    for name in ("tel", "email", "url"):
        out[name] = [
            {"value": line.value, "group": line.group, "types": [t.lower() for t in line.params.get("TYPE", [])]}
            for line in card.contents.get(name, [])
        ]
    out["adr"] = []
    for line in card.contents.get("adr", []):
        a = line.value
        out["adr"].append({
            "box": a.box, "extended": a.extended, "street": a.street, "city": a.city, "region": a.region,
            "code": a.code, "country": a.country, "group": line.group,
        })
    if "bday" in card.contents:
        out["bday"] = card.bday.value
        out["bday_params"] = {k: v for k, v in card.bday.params.items()}
    if "note" in card.contents:
        out["note"] = card.note.value
    if "photo" in card.contents:
        photo = card.photo
        raw = raw_values(raw_card, "photo")[0]
        if isinstance(photo.value, bytes):
            out["photo"] = base64.b64encode(photo.value).decode()
        elif raw.lower().startswith("data:"):
            out["photo"] = base64.b64encode(data_uri(raw)).decode()
        else:
            out["photo"] = None
    for line in card.lines():
        name = line.name.lower()
        if name.startswith("x-") and name != "x-ablabel" or name == "impp":
            value = line.value if isinstance(line.value, str) else str(line.value)
            out["x"].setdefault(name, []).append(
                {"value": value, "group": line.group, "params": {k: v for k, v in line.params.items()}}
            )
    return out


def main():
    text = open(sys.argv[1], encoding="utf-8", newline="").read()
    cards = list(vobject.readComponents(text))
    raw = raw_cards(text)
    if len(raw) != len(cards):
        sys.exit(f"vobject read {len(cards)} cards but the file has {len(raw)}")
    json.dump([card_json(c, r) for c, r in zip(cards, raw)], sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
