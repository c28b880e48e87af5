import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Shows the progress of a long run on standard error: a redrawn bar with rate and ETA
/// when stderr is a terminal, otherwise plain lines (at most one a second, plus the last
/// of each stage) that logs and CI keep readable. Printing only; used from one task.
final class ProgressDisplay {
    /// Whether stderr is a terminal (then the bar is redrawn in place).
    let isTerminal: Bool
    private let command: String
    private let unit: String
    private var stage = ""
    private var stageStart = ContinuousClock.now
    /// When the previous update arrived: the end of the previous stage, the start of the next.
    private var lastUpdate = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var drewBar = false

    /// `command` prefixes plain lines (`index`, `match`); `unit` names the items (`files`).
    /// The first stage's clock starts now.
    init(command: String, unit: String, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.command = command
        self.unit = unit
        self.isTerminal = isTerminal
    }

    /// Reports `completed` of `total` items of `stage`; `detail` is the item just done.
    func update(stage: String, unit: String? = nil, completed: Int, total: Int, detail: String? = nil) {
        let now = ContinuousClock.now
        if stage != self.stage {
            finishLine()
            self.stage = stage
            stageStart = lastUpdate
            // Plain lines start after a second (or at the end): no "0.0/s" noise.
            lastDraw = isTerminal ? nil : now
        }
        lastUpdate = now
        let isLast = completed >= total
        if let lastDraw, !isLast, now - lastDraw < (isTerminal ? .milliseconds(100) : .seconds(1)) { return }
        lastDraw = now
        let seconds = Self.seconds(now - stageStart)
        let rate = seconds > 0 ? Double(completed) / seconds : 0
        let eta = rate > 0 ? Double(total - completed) / rate : nil
        let percent = total > 0 ? completed * 100 / total : 100
        let rateText = String(format: "%.1f %@/s", rate, unit ?? self.unit)
        let etaText = isLast ? "done in \(Self.clock(seconds))" : "ETA \(eta.map(Self.clock) ?? "--:--")"
        if isTerminal {
            let width = 24
            let filled = total > 0 ? min(width, completed * width / total) : width
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            var line = "\(stage) \(bar) \(completed)/\(total) \(percent)%  \(rateText)  \(etaText)"
            if let detail, !isLast { line += "  " + Self.shortened(shown(detail), to: 40) }
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
            drewBar = true
        } else {
            printError("\(command): \(stage) \(completed)/\(total) (\(percent)%), \(rateText), \(etaText)")
        }
    }

    /// Ends the bar's line so that what follows starts on a fresh line.
    func finishLine() {
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
        drewBar = false
    }

    /// Writes `message` on its own line without garbling the bar.
    func note(_ message: String) {
        if drewBar { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        drewBar = false
        printError(message)
        lastDraw = nil
    }

    static func seconds(_ duration: Duration) -> Double {
        let (s, atto) = duration.components
        return Double(s) + Double(atto) / 1e18
    }

    /// `m:ss` or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }

    private static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : "…" + text.suffix(limit - 1)
    }
}
