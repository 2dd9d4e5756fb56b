import AppGroupStore
import CommandLineToolkit
import Foundation

/// `contacts-host carddav configure`: points the CardDAV example provider at an address book.
enum CardDAVCommands {
    static let urlOption = Option<String>(
        "--url", value: "URL", help: "The address book collection (http or https, e.g. https://host/dav/me/contacts/).",
        convert: { url, _ in
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
                scheme == "http" || scheme == "https", parsed.host != nil
            else { throw UsageError("'--url' must be an http or https URL with a host, got '\(url)'") }
            return url
        })
    static let usernameOption = Option<String>(
        "--username", value: "USER", help: "The user name for HTTP basic authentication.")
    static let passwordFileOption = Option<String>(
        "--password-file", value: "FILE", help: "A file (mode 0600) holding the password; needs --username.")

    static let jsonFlag = JSONOutput.report(
        "{\"passwordFile\"? (its absolute path), \"path\" (of carddav.json), \"url\", \"username\"?}")

    /// What `carddav configure --json` prints: what was written, and where (never the password).
    struct ConfigureSummary: Encodable {
        var passwordFile: String?
        var path: String
        var url: String
        var username: String?
    }

    static var all: [Command] { [configure, ForwardedCommands.demoCardDAV] }

    static let configure = Command(
        ["carddav", "configure"],
        summary: "Point the CardDAV example provider at an address book (writes carddav.json).",
        discussion: """
            Writes carddav.json (mode 0600) into the App Group: the address book collection's URL and,
            for servers that need a login, the user name and the path of a file holding the password.
            The password itself is never taken on the command line, and never printed or logged; keep
            its file private (mode 0600). The provider reads the file before each sync.
            """,
        options: [urlOption, usernameOption, passwordFileOption, jsonFlag],
        validate: { arguments in
            guard arguments.has(urlOption) else { throw UsageError("option '--url' is required") }
            if arguments.has(passwordFileOption), !arguments.has(usernameOption) {
                throw UsageError("'--password-file' needs '--username'")
            }
        },
        run: { arguments, context in
            var url = try arguments.value(urlOption) ?? ""
            if !url.hasSuffix("/") { url += "/" }
            var configuration: [String: String] = ["url": url]
            if let username = try arguments.value(usernameOption) { configuration["username"] = username }
            if let file = try arguments.value(passwordFileOption) {
                let path = URL(fileURLWithPath: file).standardizedFileURL.path
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw CommandFailure("cannot read the password file \(path)")
                }
                let permissions =
                    (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
                    ?? 0
                if permissions & 0o077 != 0 {
                    context.output.err(
                        "warning: \(path) is readable by others (mode \(String(permissions, radix: 8))); run 'chmod 600 \(path)'"
                    )
                }
                configuration["passwordFile"] = path
            }
            try SecureFile.ensureDirectory(context.appGroup.path)
            let data = try JSONSerialization.data(
                withJSONObject: configuration, options: [.sortedKeys, .prettyPrinted])
            let path = context.appGroup.path + "/carddav.json"
            try SecureFile.replace(path, with: data + Data("\n".utf8))
            if arguments.has(jsonFlag) {
                let summary = ConfigureSummary(
                    passwordFile: configuration["passwordFile"], path: path, url: url,
                    username: configuration["username"])
                context.output.out(try ContactJSON.report(summary))
                return ExitCode.success
            }
            context.output.out(
                "Wrote \(path) (mode 0600): \(url)\(configuration["username"].map { " as \($0)" } ?? "")")
            return ExitCode.success
        })
}
