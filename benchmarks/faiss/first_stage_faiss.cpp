// faiss's binary indexes on exactly the codes and queries of Glimpse's first stage
// (benchmarks/faiss-first-stage.sh builds this file and feeds it). It mirrors
// CandidateIndex.candidates(for:): every informative query view proposes the landmarks of the
// entries faiss returns for it (full-frame entries only for the query's inner views), each
// landmark ranked by its nearest entry, the CANDIDATES nearest kept (ties by landmark
// number); a query agrees with the exhaustive scan when the scan's first landmark (at the
// no-match threshold) is among them, or when the scan answered nothing.
//
// Usage: first_stage_faiss DIR ivf LISTS PROBES[,PROBES…] INNER_FACTOR RADIUS CANDIDATES
//        first_stage_faiss DIR hnsw M EF_CONSTRUCTION EF_SEARCH K CANDIDATES
// DIR holds entries.codes, entries.owners (glimpse debug-first-stage --export) and
// queries.txt (benchmarks/faiss/queries.py). Prints one Markdown table row (per probe count:
// the IVF index is built once).
#include <faiss/IndexBinaryFlat.h>
#include <faiss/IndexBinaryHNSW.h>
#include <faiss/IndexBinaryIVF.h>
#include <faiss/impl/AuxIndexStructures.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kFullFrameBit = 1u << 31;

struct Query {
    int64_t expected;  // the exhaustive scan's first landmark, -1: no answer
    std::vector<uint8_t> codes;  // 16 bytes per view
    std::vector<bool> full;
};

std::vector<uint8_t> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) { std::fprintf(stderr, "first_stage_faiss: cannot read %s\n", path.c_str()); std::exit(1); }
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void putWord(uint8_t* out, uint64_t word) {
    for (int b = 0; b < 8; b++) out[b] = uint8_t(word >> (8 * b));
}

std::vector<Query> readQueries(const std::string& path) {
    std::ifstream in(path);
    if (!in) { std::fprintf(stderr, "first_stage_faiss: cannot read %s\n", path.c_str()); std::exit(1); }
    std::vector<Query> queries;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        Query q;
        int views = 0;
        fields >> q.expected >> views;
        for (int v = 0; v < views; v++) {
            std::string low, high, kind;
            fields >> low >> high >> kind;
            uint8_t code[16];
            putWord(code, std::stoull(low, nullptr, 16));
            putWord(code + 8, std::stoull(high, nullptr, 16));
            q.codes.insert(q.codes.end(), code, code + 16);
            q.full.push_back(kind == "F");
        }
        queries.push_back(std::move(q));
    }
    return queries;
}

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// The nearest-entry distance of every landmark proposed, and the CANDIDATES nearest kept.
struct Proposals {
    std::vector<int32_t> nearest;  // per landmark; INT32_MAX: not proposed
    std::vector<int64_t> touched;
    explicit Proposals(size_t landmarks) : nearest(landmarks, INT32_MAX) {}
    void propose(int64_t landmark, int32_t distance) {
        if (nearest[landmark] == INT32_MAX) touched.push_back(landmark);
        nearest[landmark] = std::min(nearest[landmark], distance);
    }
    // Whether `landmark` (-1: none) is among the `candidates` nearest (ties by landmark
    // number); forgets every proposal.
    bool keeps(int64_t landmark, size_t candidates) {
        std::sort(touched.begin(), touched.end(), [&](int64_t a, int64_t b) {
            return nearest[a] != nearest[b] ? nearest[a] < nearest[b] : a < b;
        });
        bool found = false;
        for (size_t k = 0; k < touched.size() && k < candidates; k++) found = found || touched[k] == landmark;
        for (int64_t t : touched) nearest[t] = INT32_MAX;
        touched.clear();
        return found;
    }
};

// One index's figures over the queries: first-stage time per query and how often the
// exhaustive scan's first landmark was kept.
struct Timing {
    std::vector<double> ms;
    size_t agreed = 0, answered = 0, found = 0;
    // Closes query `q`, begun at `start`: its proposals are ranked, then forgotten.
    void finish(const Query& q, Proposals& proposals, size_t candidates, std::chrono::steady_clock::time_point start) {
        const bool kept = proposals.keeps(q.expected, candidates);
        ms.push_back(1000 * seconds(start));
        answered += q.expected >= 0;
        found += kept;
        agreed += q.expected < 0 || kept;
    }
    double percentile(double p) {
        std::sort(ms.begin(), ms.end());
        if (ms.empty()) return 0.0;
        const size_t rank = size_t(std::ceil(p * double(ms.size())));
        return ms[std::min(ms.size() - 1, rank == 0 ? 0 : rank - 1)];
    }
    // The row's last columns: bytes per entry, p50 / p99, kept, agreement.
    void printFigures(double bytesPerEntry, size_t queries) {
        std::printf(" %.0f B | %.2f / %.2f ms | %zu / %zu | %.4f |\n", bytesPerEntry, percentile(0.5), percentile(0.99), found,
                    answered, double(agreed) / double(queries));
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 8) {
        std::fprintf(stderr, "usage: first_stage_faiss DIR ivf LISTS PROBES INNER_FACTOR RADIUS CANDIDATES\n"
                             "       first_stage_faiss DIR hnsw M EF_CONSTRUCTION EF_SEARCH K CANDIDATES\n");
        return 2;
    }
    const std::string dir = argv[1], kind = argv[2];
    const int a = std::atoi(argv[3]), b = std::atoi(argv[4]), c = std::atoi(argv[5]), d = std::atoi(argv[6]);
    std::vector<int> probeCounts;
    for (std::istringstream list(argv[4]); !list.eof();) {
        std::string item;
        std::getline(list, item, ',');
        probeCounts.push_back(std::max(1, std::atoi(item.c_str())));
    }
    const size_t candidates = size_t(std::atol(argv[7]));
    const int threads = omp_get_max_threads();

    const std::vector<uint8_t> codes = readFile(dir + "/entries.codes");
    const std::vector<uint8_t> ownerBytes = readFile(dir + "/entries.owners");
    const size_t n = codes.size() / 16;
    if (ownerBytes.size() != 4 * n) { std::fprintf(stderr, "first_stage_faiss: entries.owners does not match entries.codes\n"); return 1; }
    std::vector<uint32_t> owners(n);
    std::copy_n(reinterpret_cast<const uint32_t*>(ownerBytes.data()), n, owners.data());
    size_t landmarks = 0;
    std::vector<uint8_t> fullCodes;
    std::vector<int64_t> fullIDs;
    for (size_t e = 0; e < n; e++) {
        landmarks = std::max(landmarks, size_t(owners[e] & ~kFullFrameBit) + 1);
        if (owners[e] & kFullFrameBit) {
            fullCodes.insert(fullCodes.end(), codes.begin() + 16 * e, codes.begin() + 16 * (e + 1));
            fullIDs.push_back(int64_t(e));
        }
    }
    std::vector<Query> queries = readQueries(dir + "/queries.txt");

    // Build on every core; search on one (the figure Glimpse's first stage reports).
    auto started = std::chrono::steady_clock::now();
    Proposals proposals(landmarks);
    if (kind == "ivf") {
        const int lists = a, innerFactor = c, radius = d;
        faiss::IndexBinaryFlat quantizer(128);
        faiss::IndexBinaryIVF all(&quantizer, 128, size_t(lists));
        // Trained as Glimpse samples: evenly spaced, at most 64 codes per list.
        const size_t sampleCount = std::min(n, size_t(64) * size_t(lists));
        std::vector<uint8_t> sample(16 * sampleCount);
        for (size_t k = 0; k < sampleCount; k++)
            std::copy_n(codes.begin() + 16 * ((n * k) / sampleCount), 16, sample.begin() + 16 * k);
        all.cp.niter = 10;  // Glimpse trains 10 coarse + 8 fine iterations
        all.train(int64_t(sampleCount), sample.data());
        const double trained = seconds(started);
        all.add(int64_t(n), codes.data());
        // The full-frame entries in lists of their own over the same centroids (Glimpse keeps
        // them at the head of each list).
        faiss::IndexBinaryIVF full(&quantizer, 128, size_t(lists));
        full.is_trained = true;
        full.add_with_ids(int64_t(fullIDs.size()), fullCodes.data(), fullIDs.data());
        const double built = seconds(started);
        const double bytesPerEntry = double((16 + sizeof(faiss::IndexBinary::idx_t)) * (n + fullIDs.size())) / double(n);
        omp_set_num_threads(1);
        for (const int probes : probeCounts) {
            Timing timing;
            all.nprobe = size_t(std::min(probes, lists));
            full.nprobe = size_t(std::min(probes * innerFactor, lists));
            for (const Query& q : queries) {
                auto t = std::chrono::steady_clock::now();
                for (size_t v = 0; v < q.full.size(); v++) {
                    faiss::RangeSearchResult result(1);
                    // faiss keeps distances below the radius; Glimpse's radius is inclusive.
                    (q.full[v] ? all : full).range_search(1, q.codes.data() + 16 * v, radius + 1, &result);
                    for (size_t k = 0; k < result.lims[1]; k++)
                        proposals.propose(int64_t(owners[size_t(result.labels[k])] & ~kFullFrameBit), int32_t(result.distances[k]));
                }
                timing.finish(q, proposals, candidates, t);
            }
            std::printf("| faiss IndexBinaryIVF, %d lists, %d (%d) probes, radius %d, %zu candidates | %.1f s (train %.1f s, %d threads) |",
                        lists, probes, probes * innerFactor, radius, candidates, built, trained, threads);
            timing.printFigures(bytesPerEntry, queries.size());
        }
    } else if (kind == "hnsw") {
        const int m = a, efConstruction = b, efSearch = c, k = d;
        faiss::IndexBinaryHNSW all(128, m), full(128, m);
        all.hnsw.efConstruction = full.hnsw.efConstruction = efConstruction;
        all.add(int64_t(n), codes.data());
        full.add(int64_t(fullIDs.size()), fullCodes.data());
        const double built = seconds(started);
        const double links = double(all.hnsw.neighbors.size() + full.hnsw.neighbors.size()) * sizeof(faiss::HNSW::storage_idx_t);
        const double bytesPerEntry = (double(16 * (n + fullIDs.size())) + links) / double(n);
        all.hnsw.efSearch = full.hnsw.efSearch = efSearch;
        omp_set_num_threads(1);
        Timing timing;
        std::vector<int32_t> distances(static_cast<size_t>(k));
        std::vector<faiss::IndexBinary::idx_t> labels(static_cast<size_t>(k));
        for (const Query& q : queries) {
            auto t = std::chrono::steady_clock::now();
            for (size_t v = 0; v < q.full.size(); v++) {
                (q.full[v] ? all : full).search(1, q.codes.data() + 16 * v, k, distances.data(), labels.data());
                for (int j = 0; j < k; j++) {
                    if (labels[size_t(j)] < 0) continue;
                    const size_t entry = q.full[v] ? size_t(labels[size_t(j)]) : size_t(fullIDs[size_t(labels[size_t(j)])]);
                    proposals.propose(int64_t(owners[entry] & ~kFullFrameBit), distances[size_t(j)]);
                }
            }
            timing.finish(q, proposals, candidates, t);
        }
        std::printf("| faiss IndexBinaryHNSW, M %d, efConstruction %d, efSearch %d, k %d, %zu candidates | %.1f s (%d threads) |",
                    m, efConstruction, efSearch, k, candidates, built, threads);
        timing.printFigures(bytesPerEntry, queries.size());
    } else {
        std::fprintf(stderr, "first_stage_faiss: unknown index kind '%s' (ivf or hnsw)\n", kind.c_str());
        return 2;
    }
    return 0;
}
