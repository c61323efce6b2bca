import ArgumentParser
import Catalog
import Foundation
import TileStore

/// The `main()` of every TileCast executable (`tilecast`, `tilecast-remote`, `tilecast-server`):
/// parse, run, and end an error the one way: a `Failure` as "tilecast: error: MESSAGE" with its
/// status; ArgumentParser's own outcomes as it words them, help on stdout with status 0 and a
/// usage error with status 2 (ArgumentParser's own code for it, 64, is not one of ours).
package enum CommandLineMain {
    /// Runs the command `Root` and its subcommands name on the process's arguments.
    package static func run<Root: ParsableCommand>(_ root: Root.Type) {
        do {
            var command = try root.parseAsRoot()
            try command.run()
        } catch {
            exit(error, root)
        }
    }

    /// Runs the asynchronous command `Root` (it has no subcommands) on the process's arguments.
    package static func runAsync<Root: AsyncParsableCommand>(_ root: Root.Type) async {
        do {
            var command = try root.parse()
            try await command.run()
        } catch {
            exit(error, root)
        }
    }

    /// Writes `error` for the user and ends the process with its status. Every message is
    /// redacted (`StoreAddress.redacted`): a store URL's password never reaches stderr.
    package static func exit<Root: ParsableArguments>(_ error: Error, _ root: Root.Type) -> Never {
        if let failure = error as? Failure {
            FileHandle.standardError.write(Data("tilecast: error: \(StoreAddress.redacted(failure.message))\n".utf8))
            Foundation.exit(failure.status.rawValue)
        }
        let code = root.exitCode(for: error)
        let message = StoreAddress.redacted(root.fullMessage(for: error))
        if code == .success {
            print(message)
            Foundation.exit(ExitStatus.success.rawValue)
        }
        if !message.isEmpty { FileHandle.standardError.write(Data("\(message)\n".utf8)) }
        Foundation.exit(code == .validationFailure ? ExitStatus.badUsage.rawValue : code.rawValue)
    }
}
