import ArgumentParser
import ModelIngest
import TileCastCommandLine

/// `tilecast profile NAME`: prints a built-in name profile, to copy and extend.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Print a built-in name profile (JSON) to start a site's own from.",
        discussion: """
        A profile maps what a model's files call things (T2, Q2, rain_con, ...) to what TileCast reads, with units. Add aliases to a copy and pass it with --profile FILE.
        """
    )

    @Argument(help: "The profile to print: wrf or mm5.")
    var name: String = "wrf"

    func run() throws {
        guard let text = ModelProfile.builtinText(name) else {
            throw Failure(.badUsage, "no built-in profile \"\(name)\" (known: \(ModelProfile.builtinNames.joined(separator: ", ")))")
        }
        print(text, terminator: "")
    }
}
