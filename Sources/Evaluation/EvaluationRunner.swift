import Foundation
import PixelBuffers
import Search
import SyntheticData

/// Runs the accuracy evaluation: every catalog image is altered by every
/// ``ImageTransformation`` and queried; every negative image is queried as it is and
/// under every transformation; the outcomes become an ``EvaluationReport``.
///
/// Deterministic: transformations are seeded from the image's relative path, and the
/// outcomes are ordered by image and transformation whatever the concurrency.
public struct EvaluationRunner: Sendable {
    /// The transformations applied to every image, in report order.
    public var transformations: [ImageTransformation]
    /// False-positive rate at which the operating point is measured (default 0.01).
    public var targetFalsePositiveRate: Double
    /// Images processed at once (default: the number of active cores).
    public var concurrency: Int

    /// Creates a runner; the defaults evaluate every transformation at 1 % false positives.
    public init(transformations: [ImageTransformation] = ImageTransformation.allCases,
                targetFalsePositiveRate: Double = 0.01,
                concurrency: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.transformations = transformations
        self.targetFalsePositiveRate = targetFalsePositiveRate
        self.concurrency = max(1, concurrency)
    }

    /// The name negatives' untransformed queries carry in outcomes.
    public static let originalName = "original"

    /// Evaluates `search` on the images of `catalogFolder` (whose landmark ids are their
    /// relative paths without extension, as a folder catalog names them) and of
    /// `negativesFolder`. `searchThreshold`, when given, is the search's own no-match
    /// threshold, measured as a second operating point. Cost: images × (transformations + decode) plus one `search`
    /// call per query.
    ///
    /// - Throws: ``EvaluationError`` naming the folder, image or query that failed.
    public func evaluate(catalogFolder: String, negativesFolder: String?, searchThreshold: Double? = nil,
                         search: @escaping @Sendable (PixelBuffer) async throws -> SearchAnswer) async throws(EvaluationError) -> EvaluationReport {
        let catalog = try ImageFolder.images(in: catalogFolder)
        let negatives = try negativesFolder.map { folder throws(EvaluationError) in try ImageFolder.images(in: folder) } ?? []
        let names = transformations.map(\.rawValue)
        var jobs = catalog.map { Job(folder: catalogFolder, relativePath: $0, expectedID: ImageFolder.landmarkID(for: $0)) }
        if let negativesFolder {
            jobs += negatives.map { Job(folder: negativesFolder, relativePath: $0, expectedID: nil) }
        }
        let outcomes = try await run(jobs, search: search)
        return EvaluationReport(
            catalogImages: catalog.count, negativeImages: negatives.count, transformations: names,
            positives: outcomes.filter { $0.expectedID != nil },
            negatives: outcomes.filter { $0.expectedID == nil },
            targetFalsePositiveRate: targetFalsePositiveRate, searchThreshold: searchThreshold)
    }

    /// The seed of every transformation of the image at `relativePath` (stable across runs).
    static func seed(for relativePath: String) -> UInt64 {
        SeededGenerator.seed(for: relativePath, salt: 0x6C1D_5E)
    }

    /// One image to query under every transformation.
    struct Job: Sendable {
        var folder: String
        var relativePath: String
        var expectedID: String?
    }

    private func run(_ jobs: [Job], search: @escaping @Sendable (PixelBuffer) async throws -> SearchAnswer) async throws(EvaluationError) -> [QueryOutcome] {
        let transformations = self.transformations
        let width = min(concurrency, jobs.count)
        let (results, failure) = await withTaskGroup(of: (Int, Result<[QueryOutcome], EvaluationError>).self) { group in
            var results = [[QueryOutcome]](repeating: [], count: jobs.count)
            var failure: (index: Int, error: EvaluationError)?
            var next = 0, inFlight = 0
            while true {
                // Keep `width` jobs in flight; start no new one after a failure.
                while failure == nil, next < jobs.count, inFlight < width {
                    let index = next, job = jobs[index]
                    group.addTask {
                        (index, await Self.query(job, transformations: transformations, search: search))
                    }
                    next += 1
                    inFlight += 1
                }
                guard let (index, outcome) = await group.next() else { break }
                inFlight -= 1
                switch outcome {
                case .success(let outcomes):
                    results[index] = outcomes
                case .failure(let error):
                    // Keep the earliest job's failure so the error does not depend on timing.
                    if let earlier = failure, earlier.index < index { break }
                    failure = (index, error)
                }
            }
            return (results, failure)
        }
        if let failure { throw failure.error }
        return results.flatMap { $0 }
    }

    /// Decodes one image and queries it under every transformation (and as it is, for a
    /// negative). Returns a `Result` rather than throwing typed errors: with a typed-throws
    /// `do`/`catch` inside the task-group child, release builds (Swift 6.3, this machine)
    /// received a garbage job index from `group.next()`; debug builds did not. Errors now
    /// cross the task boundary as values and the child body has no typed throws.
    private static func query(_ job: Job, transformations: [ImageTransformation],
                              search: @Sendable (PixelBuffer) async throws -> SearchAnswer) async -> Result<[QueryOutcome], EvaluationError> {
        do {
            return .success(try await queryThrowing(job, transformations: transformations, search: search))
        } catch let error as EvaluationError {
            return .failure(error)
        } catch {
            return .failure(.queryFailed(job.relativePath, transformation: "-", reason: "\(error)"))
        }
    }

    private static func queryThrowing(_ job: Job, transformations: [ImageTransformation],
                                      search: @Sendable (PixelBuffer) async throws -> SearchAnswer) async throws -> [QueryOutcome] {
        let path = (job.folder as NSString).appendingPathComponent(job.relativePath)
        let pixels: PixelBuffer
        do {
            pixels = try ImageDecoder().decode(file: path, options: DecodeOptions(alwaysRGBA: true)).pixels
        } catch {
            throw EvaluationError.decodeFailed(path, reason: error.description)
        }
        let seed = seed(for: job.relativePath)
        var variants: [(String, PixelBuffer)] = []
        if job.expectedID == nil { variants.append((originalName, pixels)) }
        for transformation in transformations {
            variants.append((transformation.rawValue, try transformation.apply(to: pixels, seed: seed, name: path)))
        }
        var outcomes: [QueryOutcome] = []
        for (name, buffer) in variants {
            let answer: SearchAnswer
            do {
                answer = try await search(buffer)
            } catch {
                throw EvaluationError.queryFailed(path, transformation: name, reason: "\(error)")
            }
            outcomes.append(QueryOutcome(image: job.relativePath, transformation: name, expectedID: job.expectedID,
                                         rankedIDs: answer.landmarkIDs, topScore: answer.topScore, topID: answer.topID,
                                         topDistances: answer.topDistances, exhaustiveIDs: answer.exhaustiveIDs,
                                         queryCodes: answer.queryCodes))
        }
        return outcomes
    }
}
