import Catalog
import Foundation
import PointQuery

/// A minimal FlatBuffers writer, laid out front to back: a table's vtable comes just before
/// it, and the objects a table points to (strings, vectors, tables) come after it, so every
/// offset points forward as FlatBuffers' unsigned offsets must. Enough for Open-Meteo's schema.
struct FlatBufferWriter {
    enum Field {
        case u8(UInt8), i16(Int16), i32(Int32), i64(Int64), f32(Float)
        /// An object written after the table; the closure writes it and returns its position.
        case object((inout FlatBufferWriter) -> Int)

        var size: Int {
            switch self {
            case .u8: return 1
            case .i16: return 2
            case .i32, .f32, .object: return 4
            case .i64: return 8
            }
        }
    }

    private(set) var bytes: [UInt8] = []

    mutating func align(_ n: Int) { while bytes.count % n != 0 { bytes.append(0) } }

    private mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func set<T: FixedWidthInteger>(_ value: T, at position: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (k, byte) in raw.enumerated() { bytes[position + k] = byte }
        }
    }

    /// Points the offset slot at `slot` to `target` (which lies after it).
    private mutating func link(_ slot: Int, to target: Int) { set(UInt32(target - slot), at: slot) }

    /// A table; `fields[k]` is field id k, nil when absent (the reader's default).
    mutating func table(_ fields: [Field?]) -> Int {
        // Layout inside the table: the vtable offset, then fields largest first (each aligned).
        var layout: [(id: Int, offset: Int)] = []
        var size = 4
        for (id, field) in fields.enumerated().sorted(by: { ($0.element?.size ?? 0) > ($1.element?.size ?? 0) }) {
            guard let field else { continue }
            size = (size + field.size - 1) / field.size * field.size
            layout.append((id, size))
            size += field.size
        }
        size = (size + 3) / 4 * 4
        // The vtable: its size, the table's size, each field's offset (0: absent).
        align(2)
        let vtable = bytes.count
        put(UInt16(4 + 2 * fields.count))
        put(UInt16(size))
        for id in fields.indices { put(UInt16(layout.first { $0.id == id }?.offset ?? 0)) }
        // The table starts 8-aligned (its 64-bit fields are aligned within it).
        while (bytes.count - vtable) % 2 != 0 || bytes.count % 8 != 0 { bytes.append(0) }
        let table = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: size))
        set(Int32(table - vtable), at: table)
        var children: [(slot: Int, write: (inout FlatBufferWriter) -> Int)] = []
        for (id, offset) in layout {
            switch fields[id] {
            case .u8(let v): set(v, at: table + offset)
            case .i16(let v): set(v, at: table + offset)
            case .i32(let v): set(v, at: table + offset)
            case .i64(let v): set(v, at: table + offset)
            case .f32(let v): set(v.bitPattern, at: table + offset)
            case .object(let write): children.append((table + offset, write))
            case nil: break
            }
        }
        for child in children { link(child.slot, to: child.write(&self)) }
        return table
    }

    mutating func string(_ text: String) -> Int {
        align(4)
        let position = bytes.count
        put(UInt32(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
        return position
    }

    mutating func floats(_ values: [Float]) -> Int {
        align(4)
        let position = bytes.count
        put(UInt32(values.count))
        for value in values { put(value.bitPattern) }
        return position
    }

    /// A vector of Int64 (values_int64): its elements 8-aligned, after the 4-byte length.
    mutating func int64s(_ values: [Int64]) -> Int {
        align(4)
        if (bytes.count + 4) % 8 != 0 { bytes.append(contentsOf: [0, 0, 0, 0]) }
        let position = bytes.count
        put(UInt32(values.count))
        for value in values { put(UInt64(bitPattern: value)) }
        return position
    }

    mutating func tables(_ items: [[Field?]]) -> Int {
        align(4)
        let position = bytes.count
        put(UInt32(items.count))
        bytes.append(contentsOf: repeatElement(0, count: 4 * items.count))
        for (k, item) in items.enumerated() { link(position + 4 + 4 * k, to: table(item)) }
        return position
    }

    /// A finished buffer: the root offset first, then the root table.
    static func buffer(root: [Field?]) -> [UInt8] {
        var writer = FlatBufferWriter()
        writer.put(UInt32(0))
        let table = writer.table(root)
        writer.link(0, to: table)
        return writer.bytes
    }
}

/// Open-Meteo's FlatBuffers answer (`format=flatbuffers`), as its official SDK reads it: one
/// size-prefixed `WeatherApiResponse` per place. Enum numbers are those of openmeteo-sdk's
/// generated code (Variable, Unit, Aggregation); the model is "undefined" (not one of theirs).
enum OpenMeteoFlatBuffers {
    static func variable(_ v: ForecastVariable) -> (code: UInt8, altitude: Int16) {
        guard let sdk = v.spec.sdk else { return (0, 0) }
        return (sdk.code, sdk.altitude)
    }

    /// Soil layers' top and bottom in cm (VariableWithValues' depth and depth_to), nil for the rest.
    static func depth(_ v: ForecastVariable) -> (from: Int16, to: Int16)? { v.spec.sdk?.depth }

    /// One VariableWithValues table in the schema's field order: variable, unit, value, values,
    /// values_int64, altitude, aggregation, pressure_level, depth, depth_to. Fields at their
    /// default (0) are left out, as FlatBuffers writers do.
    static func variableTable(_ v: ForecastVariable, code: UInt8? = nil, unit: UInt8, value: FlatBufferWriter.Field? = nil,
                              values: FlatBufferWriter.Field? = nil, int64s: FlatBufferWriter.Field? = nil,
                              aggregation: UInt8? = nil) -> [FlatBufferWriter.Field?] {
        let known = variable(v), depth = depth(v), pressureLevel = v.spec.sdk?.pressureLevel ?? 0
        // A `_spread` is its base's code with the spread aggregation (11), as Open-Meteo writes it.
        let own = v.spec.sdk?.aggregation ?? 0, written = aggregation ?? (own == 0 ? nil : own)
        return [.u8(code ?? known.code), .u8(unit), value, values, int64s, known.altitude == 0 ? nil : .i16(known.altitude),
                written.map { .u8($0) }, pressureLevel == 0 ? nil : .i16(pressureLevel),
                depth.flatMap { $0.from == 0 ? nil : .i16($0.from) }, depth.map { .i16($0.to) }]
    }

    /// A column of nulls (Open-Meteo's `unit: .undefined`, code 0 of the schema's Unit): the
    /// variable's own code and levels when TileCast has the variable, else the schema's code for
    /// the few unserved names clients ask for most (openmeteo-sdk flatbuffers/weather_api.fbs:
    /// precipitation_probability 26, uv_index 52, uv_index_clear_sky 53), else 0 (undefined).
    static func nullTable<V: Hashable & Sendable>(_ column: RequestedColumn<V>, value: FlatBufferWriter.Field? = nil,
                                                  values: FlatBufferWriter.Field? = nil) -> [FlatBufferWriter.Field?] {
        switch column.variable {
        case let v as ForecastVariable:
            return variableTable(v, unit: 0, value: value, values: values)
        case let field as DailyVariable:
            return variableTable(field.variable, code: dailyCode(field), unit: 0, value: value, values: values, aggregation: aggregation(field))
        default:
            let codes: [String: UInt8] = ["precipitation_probability": 26, "uv_index": 52, "uv_index_clear_sky": 53]
            let aggregations: [String: UInt8] = ["_min": 1, "_max": 2, "_mean": 3, "_sum": 10]
            var base = column.name, aggregation: UInt8?
            for (suffix, code) in aggregations where V.self == DailyVariable.self && base.hasSuffix(suffix) {
                base = String(base.dropLast(suffix.count))
                aggregation = code
            }
            return [.u8(codes[base] ?? 0), nil, value, values, nil, nil, aggregation.map { .u8($0) }, nil, nil, nil]
        }
    }

    /// The SDK's Unit for a unit as the JSON spells it (`OpenMeteoRenderer.label`).
    static func unit(_ symbol: String) -> UInt8 {
        let units: [String: UInt8] = ["°C": 1, "°F": 9, "km/h": 24, "m/s": 28, "mp/h": 31, "kn": 25, "mm": 32, "inch": 18, "cm": 2,
                                      "%": 35, "hPa": 16, "°": 5, "W/m²": 39, "wmo code": 40, "MJ/m²": 26,
                                      "kPa": 22, "m": 29, "m³/m³": 3, "J/kg": 20, "ft": 10, "s": 36, "kg/m³": 42, "fraction": 11,
                                      "kg/m²": 23, "K": 21]
        return units[OpenMeteoRenderer.label(symbol)] ?? 0
    }

    /// The SDK's Unit of an hourly variable: by its JSON spelling, except where Open-Meteo's
    /// Unit differs from the spelling's usual one (updraft: metre_per_second_not_unit_converted,
    /// 27, which prints "m/s" too; k_index and lifted_index: dimensionless, 7, which prints "").
    static func unit(_ variable: ForecastVariable, _ units: OutputUnits) -> UInt8 {
        switch variable {
        case .updraft: return 27
        case .kIndex, .liftedIndex: return 7
        default: return unit(units.symbol(variable))
        }
    }

    static func aggregation(_ daily: DailyVariable) -> UInt8 {
        switch daily.statistic {
        case .min: return 1
        case .max: return 2
        case .mean: return 3
        case .sum: return 10
        case .mostSevere, .daylight, .hours, .sunrise, .sunset, .moonrise, .moonset, .moonPhase: return 0
        case .dominant: return 9
        }
    }

    /// Daily fields that are not a statistic of one hourly variable: their own Variable code.
    static func dailyCode(_ daily: DailyVariable) -> UInt8? {
        switch daily.statistic {
        case .daylight: return 7
        case .sunrise: return 40
        case .sunset: return 41
        case .moonrise: return 169
        case .moonset: return 170
        case .moonPhase: return 171
        default: return nil
        }
    }

    /// The printed number as a Float (NaN for null): the same values as the JSON.
    static func printed(_ text: String) -> Float { Float(text) ?? .nan }

    /// One size-prefixed message per location and model, as Open-Meteo's FlatBuffersWriter.swift
    /// streams them (each model's message under the location's number).
    static func encode(_ locations: [LocationAnswer], parameters: ForecastParameters, milliseconds: Double) -> [UInt8] {
        let units = parameters.units
        var out: [UInt8] = []
        for (locationID, place) in locations.flatMap({ location in location.parts.map { (location.locationID, $0) } }) {
            let f = place.forecast
            let times = place.times
            var root: [FlatBufferWriter.Field?] = Array(repeating: nil, count: 15)
            root[0] = .f32(Float(f.latitude))
            root[1] = .f32(Float(f.longitude))
            root[2] = .f32(f.elevation.map { printed(ForecastRenderer.number($0, 0) ?? "") } ?? .nan)
            root[3] = .f32(Float(milliseconds))
            root[4] = .i64(Int64(locationID))
            root[6] = .i32(Int32(times.utcOffset))
            root[7] = .object { $0.string(times.zoneName) }
            root[8] = .object { $0.string(times.abbreviation) }
            if !parameters.currentColumns.isEmpty {
                let variables: [[FlatBufferWriter.Field?]] = parameters.currentColumns.map { column in
                    guard let v = OpenMeteoRenderer.answering(column, place) else { return nullTable(column, value: .f32(.nan)) }
                    return variableTable(v, unit: unit(v, units), value: .f32(printed(OpenMeteoRenderer.value(place.current[v] ?? .nan, v, units))))
                }
                root[9] = .object { w in w.table([.i64(times.current), .i64(times.current + RequestTimes.currentInterval),
                                                  .i32(Int32(RequestTimes.currentInterval)), .object { $0.tables(variables) }]) }
            }
            if !parameters.dailyColumns.isEmpty, let first = times.dayStarts.first, let last = times.dayStarts.last {
                let variables: [[FlatBufferWriter.Field?]] = parameters.dailyColumns.map { column in
                    guard let field = OpenMeteoRenderer.answering(column, place) else {
                        return nullTable(column, values: .object { $0.floats(Array(repeating: .nan, count: times.days.count)) })
                    }
                    let series = place.daily[field] ?? Array(repeating: .nan, count: times.days.count)
                    if field.isTimeOfDay {
                        // Sunrise and sunset as unix seconds in values_int64, as Open-Meteo sends them.
                        let seconds = series.indices.map { d -> Int64 in
                            let start = d < times.dayStarts.count ? times.dayStarts[d] : 0
                            return series[d].isFinite ? start + Int64((Double(series[d]) / 60).rounded()) * 60 : 0
                        }
                        return variableTable(field.variable, code: dailyCode(field), unit: 37, int64s: .object { $0.int64s(seconds) })
                    }
                    let values = series.indices.map { d in
                        printed(OpenMeteoRenderer.dailyValue(series[d], field, units, dayStart: d < times.dayStarts.count ? times.dayStarts[d] : 0,
                                                             timeZone: times.zone, timeFormat: parameters.timeFormat))
                    }
                    return variableTable(field.variable, code: dailyCode(field), unit: unit(OpenMeteoRenderer.dailyUnit(field, units)), values: .object { $0.floats(values) },
                                         aggregation: aggregation(field))
                }
                root[10] = .object { w in w.table([.i64(first), .i64(last + 86400), .i32(86400), .object { $0.tables(variables) }]) }
            }
            if !parameters.hourlyColumns.isEmpty, let first = times.hourly.first, let last = times.hourly.last {
                let variables: [[FlatBufferWriter.Field?]] = parameters.hourlyColumns.map { column in
                    guard let v = OpenMeteoRenderer.answering(column, place) else {
                        return nullTable(column, values: .object { $0.floats(Array(repeating: .nan, count: times.hourly.count)) })
                    }
                    let values = (place.hourly.values[v] ?? Array(repeating: .nan, count: times.hourly.count)).map { printed(OpenMeteoRenderer.value($0, v, units)) }
                    return variableTable(v, unit: unit(v, units), values: .object { $0.floats(values) })
                }
                // The block's step: an hour, or `temporal_resolution`'s.
                let step = times.hourlyStep
                root[11] = .object { w in w.table([.i64(first), .i64(last + step), .i32(Int32(step)), .object { $0.tables(variables) }]) }
            }
            // minutely_15 (field 12 of WeatherApiResponse in openmeteo-sdk's weather_api.fbs).
            if !parameters.minutely15Columns.isEmpty, let first = times.minutely15.first, let last = times.minutely15.last {
                let count = times.minutely15.count
                let variables: [[FlatBufferWriter.Field?]] = parameters.minutely15Columns.map { column in
                    guard let v = OpenMeteoRenderer.answering(column, place) else {
                        return nullTable(column, values: .object { $0.floats(Array(repeating: .nan, count: count)) })
                    }
                    let values = (place.minutely15?.values[v] ?? Array(repeating: .nan, count: count)).map { printed(OpenMeteoRenderer.value($0, v, units)) }
                    return variableTable(v, unit: unit(v, units), values: .object { $0.floats(values) })
                }
                let step = RequestTimes.currentInterval
                root[12] = .object { w in w.table([.i64(first), .i64(last + step), .i32(Int32(step)), .object { $0.tables(variables) }]) }
            }
            let message = FlatBufferWriter.buffer(root: root)
            withUnsafeBytes(of: UInt32(message.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: message)
        }
        return out
    }
}
