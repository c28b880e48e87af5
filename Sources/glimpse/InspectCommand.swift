import ArgumentParser
import Foundation
import PixelBuffers

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
        let report = InspectReport(file: shown(image), image: decoded, milliseconds: milliseconds, dump: dump)
        print(json ? report.json() : report.text())
    }
}

/// What `inspect` prints, as text or JSON.
struct InspectReport: Encodable {
    struct Rect: Encodable {
        let x: Int, y: Int, width: Int, height: Int
        init(_ r: PixelRect) { (x, y, width, height) = (r.x, r.y, r.width, r.height) }
    }
    let file: String
    let format: String
    let components: Int
    /// Bits per sample in the file (HEIF/AVIF 8, 10 or 12; the pixels are always 8-bit).
    let bitDepth: Int
    let interlaced: Bool
    /// Whether the HEIF/AVIF primary image is a grid of tiles.
    let grid: Bool
    /// Frames of an animated WebP or top-level images of a HEIF/AVIF (the first / primary is decoded).
    let imageCount: Int
    let storedWidth: Int
    let storedHeight: Int
    let orientation: Int
    let orientationApplied: Bool
    let orientedWidth: Int
    let orientedHeight: Int
    let region: Rect
    let storedRegion: Rect
    let scale: String
    let decodedWidth: Int
    let decodedHeight: Int
    let pixelFormat: String
    let decodeMilliseconds: Double
    let dump: String?

    init(file: String, image: DecodedImage, milliseconds: Double, dump: String?) {
        let info = image.info
        self.file = file
        format = info.format.description
        components = info.components
        bitDepth = info.bitDepth
        interlaced = info.isInterlaced
        grid = info.isGrid
        imageCount = info.imageCount
        storedWidth = info.storedWidth
        storedHeight = info.storedHeight
        orientation = info.orientation.rawValue
        orientationApplied = image.appliedOrientation != .up
        orientedWidth = info.orientedWidth
        orientedHeight = info.orientedHeight
        region = Rect(image.region)
        storedRegion = Rect(image.storedRegion)
        scale = image.scale.description
        decodedWidth = image.pixels.width
        decodedHeight = image.pixels.height
        pixelFormat = image.pixels.format.rawValue
        decodeMilliseconds = (milliseconds * 1000).rounded() / 1000
        self.dump = dump
    }

    func text() -> String {
        var kind: String
        switch format {
        case "JPEG": kind = interlaced ? "progressive" : "sequential"
        case "PNG": kind = interlaced ? "interlaced" : "non-interlaced"
        case "WebP": kind = imageCount > 1 ? "animated, \(imageCount) frames, first decoded" : "still"
        default: kind = (grid ? "grid" : "single image") + (imageCount > 1 ? ", primary of \(imageCount) images" : "")
        }
        let whole = region.x == 0 && region.y == 0 && region.width == (orientationApplied ? orientedWidth : storedWidth)
            && region.height == (orientationApplied ? orientedHeight : storedHeight)
        var lines = [
            "file:          \(file)",
            "format:        \(format), \(kind), \(components) component\(components == 1 ? "" : "s"), \(bitDepth)-bit",
            "stored size:   \(storedWidth)x\(storedHeight)",
            "orientation:   \(ExifOrientation(tag: orientation))\(orientationApplied ? ", applied" : orientation == 1 ? "" : ", not applied")",
            "oriented size: \(orientedWidth)x\(orientedHeight)",
            "region:        " + (whole ? "whole image" : "\(region.x),\(region.y) \(region.width)x\(region.height) (stored \(storedRegion.x),\(storedRegion.y) \(storedRegion.width)x\(storedRegion.height))"),
            "DCT scale:     \(scale)",
            "decoded size:  \(decodedWidth)x\(decodedHeight) \(pixelFormat)",
            "decode time:   \(String(format: "%.2f", decodeMilliseconds)) ms",
        ]
        if let dump { lines.append("dump:          \(dump)") }
        return lines.joined(separator: "\n")
    }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
