#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File names as the file system has them: byte strings that need not be UTF-8.
///
/// A path is carried through Glimpse as a `String`. A name whose bytes are valid UTF-8 is
/// that text; every byte of a name that is *not* valid UTF-8 is carried as one private-use
/// scalar, U+10FE00 + byte (`bad\xFFname.jpg` holds U+10FEFF), so the original bytes come
/// back exactly when the file is opened (``withFileSystemRepresentation(_:_:)``) and the
/// text is still valid Unicode for JSON, SQLite and the terminal. For people, such bytes
/// are shown as `\xFF` (``displayName(_:)``).
///
/// Command-line arguments must be read with ``string(fromFileSystemBytes:)`` from the raw
/// `argv` (Swift's `CommandLine.arguments` replaces such bytes with U+FFFD, losing them).
public enum FileSystemPath {
    /// First private-use scalar used for a raw byte (byte 0x80 → U+10FE80).
    static let escapeBase: UInt32 = 0x10FE00

    /// The path for the file-system name `bytes` (no NUL inside). O(bytes).
    public static func string(fromFileSystemBytes bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decodeUTF8(bytes, at: i) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i]))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The file-system bytes of `path` (inverse of ``string(fromFileSystemBytes:)``). O(length).
    public static func fileSystemBytes(_ path: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = escapedByte(scalar) {
                out.append(byte)
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// Calls `body` with `path` as a NUL-terminated file-system name. O(length).
    public static func withFileSystemRepresentation<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard path.unicodeScalars.contains(where: { escapedByte($0) != nil }) else {
            return try path.withCString(body)
        }
        var bytes = fileSystemBytes(path).map { CChar(bitPattern: $0) }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// `path` for people: each raw (non-UTF-8) byte as `\xHH`; with
    /// `escapingControlCharacters` (the default, for terminals and one-line messages) also
    /// control characters as `\n`, `\t`, `\r` or `\u{H}`; everything else as it is.
    /// Data formats that quote control characters themselves (JSON, RFC 4180 CSV) pass
    /// `false`. A name that holds a literal `\xFF` looks the same as one holding the byte.
    /// O(length).
    public static func displayName(_ path: String, escapingControlCharacters: Bool = true) -> String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            escapedByte(scalar) != nil || (escapingControlCharacters && scalar.properties.generalCategory == .control)
        }
        guard path.unicodeScalars.contains(where: needsEscape) else { return path }
        var out = ""
        for scalar in path.unicodeScalars {
            if let byte = escapedByte(scalar) {
                out += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            } else if escapingControlCharacters && scalar.properties.generalCategory == .control {
                switch scalar {
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `path` with `.` components, repeated and trailing `/` removed and `name/..` pairs
    /// folded, without touching the file system (links are not resolved). O(length).
    public static func lexicallyNormalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The raw byte `scalar` stands for, if it is one of the escape scalars.
    static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        let value = scalar.value
        guard value >= escapeBase + 0x80, value <= escapeBase + 0xFF else { return nil }
        return UInt8(value - escapeBase)
    }

    /// One well-formed UTF-8 sequence at `i` (no overlongs, no surrogates, ≤ U+10FFFF) that
    /// is not itself an escape scalar, or nil.
    private static func decodeUTF8(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = b[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var value: UInt32
        var minimum: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F); minimum = 0x80
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F); minimum = 0x800
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07); minimum = 0x10000
        default: return nil
        }
        guard i + length <= b.count else { return nil }
        for k in 1..<length {
            let c = b[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value),
              let scalar = Unicode.Scalar(value), escapedByte(scalar) == nil else { return nil }
        return (scalar, length)
    }
}
