import AppGroupStore
import CommandLineToolkit
import Foundation

/// `contacts-host doctor [--repair]`: the way out of a damaged App Group.
enum DoctorCommand {
    static let repairFlag = Flag("--repair", help: "Repair what is damaged (moving damaged files aside).")
    static let jsonFlag = JSONOutput.report(
        "{\"appGroup\", \"problems\": [{\"line\" (null: the whole file), \"message\", \"path\"}]},"
            + " with --repair also \"remaining\" (problems left) and \"repaired\" (what was done, as lines)")

    /// One problem in `doctor --json`.
    struct ProblemJSON: Encodable {
        var path: String
        var line: Int?
        var message: String

        init(_ problem: StoreProblem) {
            path = problem.path
            line = problem.line
            message = problem.message
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(line, forKey: .line)  // null when the problem is the whole file
            try container.encode(message, forKey: .message)
        }

        enum CodingKeys: String, CodingKey { case path, line, message }
    }

    /// What `doctor --json` prints: the problems found, and with --repair what was done and what remains.
    struct DoctorJSON: Encodable {
        var appGroup: String
        var problems: [ProblemJSON]
        var repaired: [String]?
        var remaining: [ProblemJSON]?
    }

    static let command = Command(
        ["doctor"],
        summary: "Check every file of the App Group; --repair rebuilds what is damaged without deleting data.",
        discussion: """
            Checks the app database, its derived name-index (damaged for the current snapshot; a stale one is
            normal and rebuilt by the next search), the device's own contacts and groups (device/contacts, which
            apps write) and its access setting (device/authorization.json), each domain's system store and
            domain.json, the pipes (a
            request pipe that is not a pipe, stale reply and watcher pipes) and temp files left by interrupted writes. Prints one line per
            problem as path:line: reason and exits 1 if there is any, else prints "no problems" and exits 0.
            --repair never deletes data: damaged files are kept as <name>.damaged-<timestamp> before anything is
            rewritten, so an interrupted repair (Ctrl-C, a full disk, a power cut) leaves the store as it was or
            repaired, never missing; the app database and the device's contacts are rebuilt from every whole, valid
            line (and every line it could not read is listed); an unreadable access setting is moved aside; a damaged
            system store is dropped and the next sync is a full content enumeration; stale pipes and temp files,
            which hold no data, and a damaged name-index, which is derived, are removed.
            """,
        options: [repairFlag, jsonFlag],
        examples: ["contacts-host doctor", "contacts-host doctor --repair", "contacts-host doctor --json"],
        exitCodes: [
            ExitCodeHelp(0, "no problems (or, with --repair, everything was repaired)"),
            ExitCodeHelp(1, "problems were found (each printed as path:line: reason) or could not be repaired"),
            ExitCodeHelp(2, "usage error: nothing was run"),
        ],
        run: { arguments, context in
            let doctor = AppGroupDoctor(appGroup: context.appGroup)
            if arguments.has(jsonFlag) {
                let problems = try doctor.check()
                var json = DoctorJSON(appGroup: context.appGroup.path, problems: problems.map(ProblemJSON.init))
                var remaining = problems
                if arguments.has(repairFlag) {
                    let report = try doctor.repair()
                    json.repaired = report.lines
                    json.remaining = report.remaining.map(ProblemJSON.init)
                    remaining = report.remaining
                }
                context.output.out(try ContactJSON.report(json))
                return remaining.isEmpty ? ExitCode.success : ExitCode.failure
            }
            guard arguments.has(repairFlag) else {
                let problems = try doctor.check()
                for problem in problems { context.output.out(problem.description) }
                if problems.isEmpty {
                    context.output.out("no problems in \(context.appGroup.path)")
                    return ExitCode.success
                }
                context.output.err(
                    "\(counted(problems.count, "problem")); `contacts-host doctor --repair` rebuilds what is readable")
                return ExitCode.failure
            }
            let report = try doctor.repair()
            for line in report.lines { context.output.out(line) }
            guard report.remaining.isEmpty else {
                for problem in report.remaining { context.output.err("still damaged: \(problem)") }
                return ExitCode.failure
            }
            context.output.out(
                report.lines.isEmpty
                    ? "no problems in \(context.appGroup.path); nothing to repair" : "repaired; no problems remain")
            return ExitCode.success
        })
}
