/// What `stackweb backup --help` and `stackweb restore --help` print: each command's usage, what it
/// does and the rules it keeps (owner, mode, a running server), as the manual page says them.
public enum StateCommandHelp {
    /// The help of `verb` (`backup` or `restore`).
    public static func text(_ verb: String) -> String {
        let what =
            verb == "backup"
            ? [
                "Copies the state database PATH to FILE while the server runs (SQLite's online backup: the",
                "server goes on saving meanwhile), as one file with nothing beside it, mode 0600: it holds",
                "the secret the photo ids are keyed with. FILE is written beside and renamed into place.",
            ]
            : [
                "Puts the backup FILE back as the state database PATH. Refused while a server holds the",
                "state (stop it first: systemctl stop stackweb), and unless FILE is whole (integrity_check)",
                "and a StackWeb state database. Copied in through SQLite, so the WAL beside PATH is",
                "replaced too.",
            ]
        return
            ([
                "Usage: stackweb \(verb) FILE --state PATH", "",
            ] + what + [
                "",
                "  FILE          the backup file",
                "  --state PATH  the state database (the server's --state; STACKWEB_STATE may stand for it)",
                "  --log-format text|json",
                "                how the one line it prints is written (default: text)",
                "",
                "Run it as the state's owner (sudo -u stackweb …) or as root: then the database, its WAL and",
                "its lock file are given back to the state's owner, with the database's mode. As any other",
                "user it refuses, naming the owner.",
                "Exit status: 0 done, 1 refused or failed (one line says why), 78 a command line without FILE",
                "or --state.",
            ]).joined(separator: "\n")
    }
}
