import Fingerprints

/// Turns the four distances between a query view and a catalog view into one similarity
/// score in 0…1 (1 = identical codes, 0 = as far apart as unrelated images or further).
///
/// Fused distance, each part normalised to 0…1 by its maximum:
///
///     D = pdqWeight·pdq/256 + pHashWeight·pHash/64 + dHashWeight·dHash/64 + histogramWeight·L1/510
///     score = clamp(1 − D / unrelatedDistance, 0, 1)
///
/// plus a **colour-confirmation** term: when the colours disagree (histogram L1 above
/// ``colourAgreement``) and the structure is not near-identical, the colour difference
/// counts again, up to ``colourPenaltyWeight`` times:
///
///     s = (pdqWeight·pdq/256 + pHashWeight·pHash/64 + dHashWeight·dHash/64) / (1 − histogramWeight)
///     w = clamp((s − nearIdenticalStructure) / structureRamp, 0, 1)
///     D += colourPenaltyWeight · w · max(0, L1 − colourAgreement) / 510
///
/// A tone edit or a grayscale copy (colours far apart, structure near-identical: w ≈ 0)
/// keeps its score; an unrelated picture whose hashes happen to come close (a crop or a
/// rotation tried eight ways gives chance many tries) but whose colours differ loses it.
/// Measured (issue 12): with every query tried in eight orientations, the highest negative
/// of `glimpse eval` rose from 0.397 to 0.445 (a rotated crop of `woodlouse.jpg` against
/// `food/avocado`: PDQ 80, pHash 12, dHash 14 of 64, but histogram L1 182); with this term
/// it is back to 0.397 and no correct match of the evaluation or its held-out splits is lost.
/// Structure counts as near-identical up to 0.20 (that case sits at 0.26): a colour filter
/// or a tilted camera moves the structure of a true copy to 0.10–0.22 (PDQ 4–36 of 256)
/// while it moves the colours far (histogram L1 150–500 for sepia with a vignette), and at
/// 0.10 the penalty took those copies under the threshold. Measured on the four evaluation
/// sets (docs/ACCURACY.md): sepia-vignette 0.78 → 0.98 and keystone-10 0.80 → 0.96 recall@1
/// on the sample set, no other family changed, and not one more negative at 0.40 (0.25
/// let one through).
///
/// The weights sum to 1. Unrelated images have Hamming distances near half the bits, so
/// their hash parts sit near 0.5 and `unrelatedDistance` = 0.5 maps them to a score near
/// 0. The score is an absolute function of the distances (not normalised per query), so
/// scores are comparable across queries and catalogs, and one threshold works for all.
///
/// **Operating point.** ``noMatchThreshold`` (default 0.40 ⇔ D ≤ 0.30) is the score
/// below which a landmark is not a match. For unrelated pairs the hash part alone has mean
/// ≈ 0.40 and standard deviation ≈ 0.015 (384 roughly independent bits). Calibrated on
/// the accuracy evaluation (`glimpse eval --catalog testdata/catalog --negatives
/// testdata/negatives`, README "Accuracy"): the highest-scoring negative query scores
/// 0.397 (a red anemone on white against red cherries on white, carried by the colour
/// histogram), so at 0.40 no negative of the 420 is accepted while every correct match the
/// evaluation finds (99.4 % of 644 positive queries) scores above it; the same holds on a
/// held-out swap (catalog and negatives exchanged: 0 % false positives, 98.7 % true
/// positives). The previous default, 0.35, let 1.7 % of negatives through. Change it here
/// or per query through ``SearchConfiguration``.
///
/// **Candidate gate.** Before any score is computed, a catalog view must be within
/// ``candidatePDQRadius`` PDQ bits of the query view (default 104 of 256: unrelated
/// images sit near 128 ± 8, so about 0.1 % of them pass, while PDQ's own near-duplicate
/// threshold is 31–70). This keeps the scan to 32 bytes per view, the memory-bandwidth
/// bound of the search; it is the one place where the ranking is approximate (a pair
/// beyond the radius would need its three other distances all well below chance to
/// reach the threshold). The evaluation measures its effect. Within the radius, colour only
/// adds distance, so a pair whose ``structuralDistance(pdq:pHash:dHash:)`` alone already
/// scores below the minimum is dropped before its histogram is read (exact, no answer
/// changes). No cheaper first test was found that keeps every answer: on the three
/// evaluations and the hard negatives, best pairs scoring ≥ 0.40 reach PDQ 104, pHash 28
/// and 26 of the 64 lowest-frequency PDQ bits, radii that pass a large share of unrelated
/// views (docs/PERFORMANCE.md, "The search": why the exhaustive scan reads every byte).
///
/// **Informative views.** Views with PDQ quality below ``minimumViewQuality`` (default
/// 10) are neither indexed nor used as query views, so blank or uniform pictures never
/// match anything. The ``Fingerprinter`` already gives flat views quality 0; PDQ's own
/// advice (``PDQHash/minimumUsefulQuality``, 50) would drop real low-contrast photos
/// (the sample catalog's nebulae score 19–47) and make them unsearchable.
public struct SimilarityScoring: Sendable, Hashable, Codable {
    /// Weight of the 256-bit PDQ distance.
    public var pdqWeight: Double
    /// Weight of the 64-bit DCT perceptual-hash distance.
    public var pHashWeight: Double
    /// Weight of the 64-bit difference-hash distance.
    public var dHashWeight: Double
    /// Weight of the colour-histogram L1 distance.
    public var histogramWeight: Double
    /// Fused distance that maps to score 0 (chance level).
    public var unrelatedDistance: Double
    /// Scores below this are not matches. See the type's documentation.
    public var noMatchThreshold: Double
    /// Largest PDQ distance (0…256) at which a catalog view is scored at all.
    public var candidatePDQRadius: Int
    /// Least PDQ quality (0…100) of a view that is indexed or queried.
    public var minimumViewQuality: Int
    /// Histogram L1 (0…510) up to which colours count as agreeing (no colour-confirmation penalty).
    public var colourAgreement: Int
    /// How many times the colour difference beyond ``colourAgreement`` counts again when the
    /// structure is not near-identical (0 turns the colour confirmation off).
    public var colourPenaltyWeight: Double
    /// Normalised structural distance (hash part of D over its weight, 0…1) at or below which
    /// the structure is near-identical and colours may differ freely (tone edits, grayscale).
    public var nearIdenticalStructure: Double
    /// Structural distance over which the colour penalty ramps from nothing to full.
    public var structureRamp: Double

    /// The default no-match threshold (see the type's documentation).
    public static let defaultNoMatchThreshold = 0.40

    /// Creates a scoring; weights are normalised to sum to 1.
    public init(pdqWeight: Double = 0.4, pHashWeight: Double = 0.2, dHashWeight: Double = 0.2, histogramWeight: Double = 0.2,
                unrelatedDistance: Double = 0.5, noMatchThreshold: Double = SimilarityScoring.defaultNoMatchThreshold,
                candidatePDQRadius: Int = 104, minimumViewQuality: Int = FingerprintView.minimumSearchableQuality, colourAgreement: Int = 60,
                colourPenaltyWeight: Double = 1.0, nearIdenticalStructure: Double = 0.20, structureRamp: Double = 0.15) {
        let sum = max(pdqWeight + pHashWeight + dHashWeight + histogramWeight, .leastNonzeroMagnitude)
        self.pdqWeight = pdqWeight / sum
        self.pHashWeight = pHashWeight / sum
        self.dHashWeight = dHashWeight / sum
        self.histogramWeight = histogramWeight / sum
        self.unrelatedDistance = unrelatedDistance
        self.noMatchThreshold = noMatchThreshold
        self.candidatePDQRadius = candidatePDQRadius
        self.minimumViewQuality = minimumViewQuality
        self.colourAgreement = colourAgreement
        self.colourPenaltyWeight = colourPenaltyWeight
        self.nearIdenticalStructure = nearIdenticalStructure
        self.structureRamp = max(structureRamp, .leastNonzeroMagnitude)
    }

    /// The default scoring.
    public static let `default` = SimilarityScoring()

    /// The structural part of the fused distance (PDQ, pHash and dHash terms, no colour): a
    /// lower bound of ``fusedDistance(pdq:pHash:dHash:histogram:)`` for any histogram distance,
    /// computed with the same arithmetic, so a pair whose structure alone scores below a
    /// minimum can be dropped before its histogram is read. O(1).
    @inlinable
    public func structuralDistance(pdq: Int, pHash: Int, dHash: Int) -> Double {
        pdqWeight * Double(pdq) / 256 + pHashWeight * Double(pHash) / 64 + dHashWeight * Double(dHash) / 64
    }

    /// The fused distance D (0…1.5) of four raw distances, colour confirmation included. O(1).
    @inlinable
    public func fusedDistance(pdq: Int, pHash: Int, dHash: Int, histogram: Int) -> Double {
        let structure = structuralDistance(pdq: pdq, pHash: pHash, dHash: dHash)
        var distance = structure + histogramWeight * Double(histogram) / 510
        if histogram > colourAgreement && colourPenaltyWeight > 0 {
            let normalised = structure / max(1 - histogramWeight, .leastNonzeroMagnitude)
            let w = min(1, max(0, (normalised - nearIdenticalStructure) / structureRamp))
            distance += colourPenaltyWeight * w * Double(histogram - colourAgreement) / 510
        }
        return distance
    }

    /// The similarity score (0…1, higher is more similar) of four raw distances. O(1).
    @inlinable
    public func score(pdq: Int, pHash: Int, dHash: Int, histogram: Int) -> Double {
        score(fusedDistance: fusedDistance(pdq: pdq, pHash: pHash, dHash: dHash, histogram: histogram))
    }

    /// The similarity score of a fused distance.
    @inlinable
    public func score(fusedDistance: Double) -> Double {
        min(1, max(0, 1 - fusedDistance / unrelatedDistance))
    }

    /// The largest fused distance that still scores at least `minimumScore`.
    @inlinable
    public func maximumFusedDistance(forScore minimumScore: Double) -> Double {
        (1 - minimumScore) * unrelatedDistance
    }
}
