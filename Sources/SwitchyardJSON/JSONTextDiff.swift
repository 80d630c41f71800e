#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The JSON Patch between two JSON texts, computed on their bytes (``JSONPatch/diff(from:to:testing:)-([UInt8],_,_)``).
///
/// Values are compared as byte ranges, so an unchanged subtree costs one `memcmp` however deep it is, and every
/// value in the patch is copied from the new text as it is written there (numbers and strings keep their exact
/// spelling). Only the texts' structure is read: they must be valid JSON, as a writer of this module makes them.
///
/// The patch keeps member order: an object whose surviving members keep their order and whose new members all come
/// after them is patched member by member (`add` appends), any other object is replaced whole. An order-preserving
/// client applying the patch therefore rebuilds the new text byte for byte.
struct JSONTextDiff: ~Copyable {
    private let old: UnsafeBufferPointer<UInt8>
    private let new: UnsafeBufferPointer<UInt8>
    private let oldScanner: JSONTextScanner
    private let newScanner: JSONTextScanner
    private var writer = JSONWriter(capacity: 512)
    /// The JSON Pointer of the value being compared, as UTF-8.
    private var path: [UInt8] = []

    init(old: UnsafeBufferPointer<UInt8>, _ oldEnds: [Int32], new: UnsafeBufferPointer<UInt8>, _ newEnds: [Int32]) {
        self.old = old
        self.new = new
        oldScanner = JSONTextScanner(old, containerEnds: oldEnds)
        newScanner = JSONTextScanner(new, containerEnds: newEnds)
        writer.beginArray()
    }

    /// Adds a `test` operation (written before the differences).
    mutating func test(_ pointer: String, _ value: JSONValue) {
        writer.beginObject()
        writer.member("op", "test")
        writer.member("path", pointer)
        writer.member("value", value)
        writer.endObject()
    }

    /// Compares the two whole texts and returns the patch.
    mutating func patch() -> [UInt8] {
        let oldRange = oldScanner.wholeRange
        let newRange = newScanner.wholeRange
        compare(oldRange, newRange)
        writer.endArray()
        return writer.bytes
    }

    /// Writes the operations that turn `before` (in the old text) into `after` (in the new one): those of their
    /// members or elements, or one `replace` when that is shorter.
    private mutating func compare(_ before: Range<Int>, _ after: Range<Int>) {
        if same(before, after) { return }
        let mark = writer.mark()
        switch (old[before.lowerBound], new[after.lowerBound]) {
        case (UInt8(ascii: "{"), UInt8(ascii: "{")):
            compareObjects(before, after)
        case (UInt8(ascii: "["), UInt8(ascii: "[")):
            compareArrays(before, after)
        default:
            return write("replace", value: after)
        }
        // One `replace` costs the value, the path and about 30 bytes of punctuation.
        if writer.byteCount - mark.byteCount > after.count + path.count + 32 {
            writer.rewind(to: mark)
            write("replace", value: after)
        }
    }

    private mutating func compareObjects(_ before: Range<Int>, _ after: Range<Int>) {
        let oldMembers = oldScanner.members(of: before)
        let newMembers = newScanner.members(of: after)
        let newIndex = newMembers.map { member in
            oldMembers.firstIndex { same($0.key, member.key) }
        }
        // Order-preserving only when the kept members are in the same order and all new ones come after them.
        var lastOld = -1
        var seenNew = false
        for index in newIndex {
            guard let index else {
                seenNew = true
                continue
            }
            if seenNew || index < lastOld { return write("replace", value: after) }
            lastOld = index
        }
        let depth = path.count
        for (position, member) in oldMembers.enumerated() where !newIndex.contains(position) {
            appendKey(member.key)
            write("remove", value: nil)
            path.removeSubrange(depth...)
        }
        for (member, index) in zip(newMembers, newIndex) {
            appendKey(member.key, inNew: true)
            if let index {
                compare(oldMembers[index].value, member.value)
            } else {
                write("add", value: member.value)
            }
            path.removeSubrange(depth...)
        }
    }

    private mutating func compareArrays(_ before: Range<Int>, _ after: Range<Int>) {
        let oldElements = oldScanner.elements(of: before)
        let newElements = newScanner.elements(of: after)
        var prefix = 0
        while prefix < min(oldElements.count, newElements.count), same(oldElements[prefix], newElements[prefix]) {
            prefix += 1
        }
        var suffix = 0
        while suffix < min(oldElements.count, newElements.count) - prefix,
            same(oldElements[oldElements.count - 1 - suffix], newElements[newElements.count - 1 - suffix])
        {
            suffix += 1
        }
        let oldMiddle = oldElements.count - prefix - suffix
        let newMiddle = newElements.count - prefix - suffix
        let depth = path.count
        for offset in 0..<min(oldMiddle, newMiddle) {
            appendIndex(prefix + offset)
            compare(oldElements[prefix + offset], newElements[prefix + offset])
            path.removeSubrange(depth...)
        }
        for index in stride(from: prefix + oldMiddle - 1, through: prefix + newMiddle, by: -1) {
            appendIndex(index)
            write("remove", value: nil)
            path.removeSubrange(depth...)
        }
        for index in stride(from: prefix + oldMiddle, to: prefix + newMiddle, by: 1) {
            appendIndex(index)
            write("add", value: newElements[index])
            path.removeSubrange(depth...)
        }
    }

    private mutating func write(_ operation: StaticString, value: Range<Int>?) {
        writer.beginObject()
        writer.key("op")
        writer.string(operation.description)
        writer.member("path", String(decoding: path, as: UTF8.self))
        if let value {
            writer.key("value")
            writer.raw(UnsafeBufferPointer(rebasing: new[value]))
        }
        writer.endObject()
    }

    private func same(_ before: Range<Int>, _ after: Range<Int>) -> Bool {
        before.count == after.count
            && memcmp(old.baseAddress! + before.lowerBound, new.baseAddress! + after.lowerBound, before.count) == 0
    }

    /// Appends `/` and a member name (its JSON string at `key` in the new text, or the old one) as a pointer token.
    private mutating func appendKey(_ key: Range<Int>, inNew: Bool = false) {
        let text = inNew ? new : old
        path.append(UInt8(ascii: "/"))
        let inner = text[(key.lowerBound + 1)..<(key.upperBound - 1)]
        if !inner.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
            path.append(contentsOf: inner)
            return
        }
        let name = (try? JSONValue(parsing: UnsafeBufferPointer(rebasing: text[key])))?.stringValue ?? ""
        path.append(contentsOf: JSONPointer.escaped(name).utf8)
    }

    private mutating func appendIndex(_ index: Int) {
        path.append(UInt8(ascii: "/"))
        path.append(contentsOf: String(index).utf8)
    }
}
