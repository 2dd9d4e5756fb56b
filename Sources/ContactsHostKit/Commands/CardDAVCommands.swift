import AppGroupStore
import Foundation

/// `contacts-host carddav configure`: points the CardDAV example provider at an address book.
enum CardDAVCommands {
    static var all: [Command] { [configure, CardDAVDemoCommand.command] }

    static let configure = Command(
        ["carddav", "configure"], summary: "Point the CardDAV example provider at an address book (writes carddav.json).",
        discussion: """
            Writes carddav.json (mode 0600) into the App Group: the address book collection's URL and,
            for servers that need a login, the user name and the path of a file holding the password.
            The password itself is never taken on the command line, and never printed or logged; keep
            its file private (mode 0600). The provider reads the file before each sync.
            """,
        options: [
            OptionSpec("--url", value: "URL", help: "The address book collection (http or https, e.g. https://host/dav/me/contacts/)."),
            OptionSpec("--username", value: "USER", help: "The user name for HTTP basic authentication."),
            OptionSpec("--password-file", value: "FILE", help: "A file (mode 0600) holding the password; needs --username."),
        ],
        validate: { arguments in
            guard let url = arguments.value("--url") else { throw UsageError("option '--url' is required") }
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
                scheme == "http" || scheme == "https", parsed.host != nil
            else { throw UsageError("'--url' must be an http or https URL with a host, got '\(url)'") }
            if arguments.has("--password-file"), !arguments.has("--username") {
                throw UsageError("'--password-file' needs '--username'")
            }
        },
        run: { arguments, context in
            var url = arguments.value("--url") ?? ""
            if !url.hasSuffix("/") { url += "/" }
            var configuration: [String: String] = ["url": url]
            if let username = arguments.value("--username") { configuration["username"] = username }
            if let file = arguments.value("--password-file") {
                let path = URL(fileURLWithPath: file).standardizedFileURL.path
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw CommandFailure("cannot read the password file \(path)")
                }
                let permissions = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? 0
                if permissions & 0o077 != 0 {
                    context.output.err(
                        "warning: \(path) is readable by others (mode \(String(permissions, radix: 8))); run 'chmod 600 \(path)'")
                }
                configuration["passwordFile"] = path
            }
            try SecureFile.ensureDirectory(context.appGroup.path)
            let data = try JSONSerialization.data(withJSONObject: configuration, options: [.sortedKeys, .prettyPrinted])
            let path = context.appGroup.path + "/carddav.json"
            try SecureFile.replace(path, with: data + Data("\n".utf8))
            context.output.out("Wrote \(path) (mode 0600): \(url)\(configuration["username"].map { " as \($0)" } ?? "")")
            return HostTool.ExitCode.success
        })
}
