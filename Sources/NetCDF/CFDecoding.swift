/// CF unpacking of stored values: `value * scale_factor + add_offset`, and missing values to NaN.
///
/// The fill test compares raw (packed) values, as CF says; it is exact because the raw values
/// arrive unconverted for short and float, and through Double otherwise.
struct CFDecoding {
    let scale: Double
    let offset: Double
    let missing: [Double]
    let isPacked: Bool
    /// Packed 32/64-bit integers need Double to keep their digits before scaling.
    let needsDoublePrecision: Bool

    init(info: VariableInfo) {
        let attributes = info.attributes
        scale = attributes["scale_factor"]?.double ?? 1
        offset = attributes["add_offset"]?.double ?? 0
        isPacked = attributes["scale_factor"] != nil || attributes["add_offset"] != nil
        var missing: [Double] = []
        if let fill = attributes["_FillValue"]?.double {
            missing.append(fill)
        } else if let fill = info.type.defaultFill {
            // No _FillValue: CF says the library default marks unwritten cells.
            missing.append(fill)
        }
        if case .reals(let values)? = attributes["missing_value"] { missing += values }
        if case .integers(let values)? = attributes["missing_value"] { missing += values.map(Double.init) }
        self.missing = missing
        switch info.type {
        case .int, .uint, .int64, .uint64, .double: needsDoublePrecision = isPacked
        default: needsDoublePrecision = false
        }
    }

    @inline(__always)
    func decode(_ raw: Double) -> Double {
        if raw.isNaN || missing.contains(raw) { return .nan }
        return isPacked ? raw * scale + offset : raw
    }

    func decodeInPlace(_ values: UnsafeMutableBufferPointer<Float>) {
        let missingFloats = missing.map { Float($0) }
        let scale = Float(self.scale), offset = Float(self.offset)
        // The usual case, one fill value and no packing, as a tight loop.
        if missingFloats.count == 1 && !isPacked {
            // A select rather than a branch, so the compiler vectorizes it (it was 6 % of an
            // extraction as a branchy loop).
            let fill = missingFloats[0]
            for index in values.indices {
                let value = values[index]
                values[index] = value == fill ? .nan : value
            }
            return
        }
        for index in values.indices {
            let raw = values[index]
            if missingFloats.contains(raw) {
                values[index] = .nan
            } else if isPacked {
                values[index] = raw * scale + offset
            }
        }
    }
}
