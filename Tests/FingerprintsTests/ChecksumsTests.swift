import Dispatch
import InstructionSetTesting
import Testing
@testable import Fingerprints

/// Block checksums: the table holds each block's ``Checksum64`` on every instruction set, and
/// ``VerifiedBlocks`` finds the first damaged block of a range, once checked never again, from
/// any number of threads.
@Suite struct ChecksumsTests {
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    static func table(_ bytes: [UInt8], blockSize: Int, using isa: InstructionSet = .best) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 8 * Checksum64.blockCount(of: bytes.count, blockSize: blockSize))
        bytes.withUnsafeBytes { data in
            table.withUnsafeMutableBytes { Checksum64.blocks(of: data, blockSize: blockSize, into: $0, using: isa) }
        }
        return table
    }

    @Test(.comparingEveryInstructionSet) func eachTableEntryIsItsBlocksChecksumOnEveryPath() {
        let data = Self.bytes(4096 * 5 + 777, seed: 1)
        for isa in InstructionSet.allCases where isa.isSupported {
            let table = Self.table(data, blockSize: 4096, using: isa)
            #expect(table.count == 6 * 8)
            for block in 0..<6 {
                let end = min(data.count, 4096 * (block + 1))
                let expected = data.withUnsafeBytes { Checksum64.of(UnsafeRawBufferPointer(rebasing: $0[(4096 * block)..<end]), using: .portable) }
                let stored = table.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8 * block, as: UInt64.self)) }
                #expect(stored == expected, "block \(block) on \(isa)")
            }
        }
        #expect(Checksum64.blockCount(of: 0, blockSize: 4096) == 0 && Checksum64.blockCount(of: 4096, blockSize: 4096) == 1)
    }

    @Test func theFirstDamagedBlockOfARangeIsFoundAndSoundBlocksAreCheckedOnce() {
        var data = Self.bytes(4096 * 8 + 100, seed: 2)
        let table = Self.table(data, blockSize: 4096)
        data[4096 * 3 + 17] ^= 0x04 // block 3
        data[4096 * 8 + 99] ^= 0x80 // the short last block
        data.withUnsafeBytes { bytes in
            table.withUnsafeBytes { entries in
                let blocks = VerifiedBlocks(bytes: bytes, table: entries.baseAddress!, blockSize: 4096)
                #expect(blocks.firstDamage(in: 0..<4096 * 3) == nil)
                #expect(blocks.firstDamage(in: 100..<4096 * 5) == 4096 * 3)
                #expect(blocks.firstDamage(in: (4096 * 3 + 4095)..<(4096 * 3 + 4096)) == 4096 * 3)
                #expect(blocks.firstDamage(in: (4096 * 4)..<(4096 * 8)) == nil)
                #expect(blocks.firstDamage(in: (4096 * 8)..<(4096 * 8 + 1)) == 4096 * 8)
                // Empty and out-of-image ranges read nothing.
                #expect(blocks.firstDamage(in: 5..<5) == nil && blocks.firstDamage(in: data.count..<(data.count + 10)) == nil)
            }
        }
    }

    /// One answer slot per thread (each thread writes only its own).
    final class Slots: @unchecked Sendable {
        let values = UnsafeMutableBufferPointer<Int?>.allocate(capacity: 8)
        init() { values.initialize(repeating: nil) }
        deinit { values.deallocate() }
    }

    @Test func threadsCheckingTheSameBlocksAllSeeTheSameAnswer() {
        var data = Self.bytes(4096 * 64, seed: 3)
        let table = Self.table(data, blockSize: 4096)
        data[4096 * 50 + 1] ^= 0x01
        let count = data.count, slots = Slots()
        data.withUnsafeBytes { bytes in
            table.withUnsafeBytes { entries in
                let blocks = VerifiedBlocks(bytes: bytes, table: entries.baseAddress!, blockSize: 4096)
                DispatchQueue.concurrentPerform(iterations: 8) { k in
                    // Overlapping ranges in different orders: sound blocks checked by several
                    // threads at once, the damaged one always reported.
                    slots.values[k] = blocks.firstDamage(in: (k % 2 == 0 ? 0 : 4096 * 20)..<count)
                }
            }
        }
        #expect(slots.values.allSatisfy { $0 == 4096 * 50 })
    }
}
