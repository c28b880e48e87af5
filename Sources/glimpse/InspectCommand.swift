import ArgumentParser
import Foundation
import PixelBuffers
import Search

/// `glimpse inspect`: decode an image (or a region of it) and describe what was decoded.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode an image or a region of it and print what was decoded.",
        discussion: """
            Prints the format, stored and upright size, EXIF orientation, the DCT scale chosen, \
            the decoded size and the decode time (reading the file included). Regions are in \
            the coordinates of the upright image (of the stored image with --stored-orientation).
            Example: glimpse inspect photo.jpg --region 120,340,800,600 --min-side 64 --dump out.pam
            """
    )

    @Argument(help: "The PNG, JPEG, WebP, HEIF or AVIF file to decode (format detected from its bytes).")
    var image: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Decode only this rectangle, in pixels.", valueName: "x,y,w,h"))
    var region: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Decode only this rectangle, as fractions 0…1 of width and height.", valueName: "x,y,w,h"))
    var regionFraction: String?

    @Option(help: "Decode at the smallest DCT scale (1/8, 1/4, 1/2, 1) giving at least this many pixels on the short side (JPEG).")
    var minSide: Int?

    @Flag(help: "Keep the stored orientation instead of applying the EXIF orientation.")
    var storedOrientation = false

    @Option(help: ArgumentHelp("Write the decoded pixels as a PAM file (P7, RGB_ALPHA).", valueName: "out.pam"))
    var dump: String?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        _ = try decodeRegion()
        if let minSide, minSide <= 0 { throw ValidationError("--min-side must be positive") }
    }

    /// The region options in the one region grammar (``DecodeOptions/Region/init(pixelsText:)``); a
    /// negative coordinate is read as a value (not an option) and refused there, in words.
    private func decodeRegion() throws -> DecodeOptions.Region? {
        if region != nil && regionFraction != nil { throw ValidationError("give either --region or --region-fraction, not both") }
        do {
            if let region { return try DecodeOptions.Region(pixelsText: region) }
        } catch { throw ValidationError("--region \(error.reason)") }
        do {
            if let regionFraction { return try DecodeOptions.Region(fractionsText: regionFraction) }
        } catch { throw ValidationError("--region-fraction \(error.reason)") }
        return nil
    }

    func run() async throws {
        let options = DecodeOptions(
            region: try decodeRegion(),
            minimumShortSide: minSide, applyOrientation: !storedOrientation)
        if let dump {
            do { try OutputFile.checkDestination(dump) } catch { throw failure("\(dump): cannot write the PAM dump: \(error.description)") }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder().decode(file: image, options: options)
        } catch {
            throw failure(error.description)
        }
        let elapsed = start.duration(to: clock.now)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        if let dump {
            do { try OutputFile.write(PAMWriter.encode(decoded.pixels), to: dump) } catch {
                throw failure("\(dump): cannot write the PAM dump: \(error.description)")
            }
        }
        let report = DecodeReportRecord(file: shown(image), image: decoded, milliseconds: milliseconds, dump: dump)
        print(json ? WireJSON.line(report) : report.text())
    }
}
