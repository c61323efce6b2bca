import NetCDF

/// How a source variable must be laid out and in what unit it is stored, checked once when a
/// file is opened, so that a field stored transposed, on levels, or in another unit is refused
/// or converted instead of read as if it were what the profile says.
struct SourceLayout {
    /// The dimensions a role's variable may have.
    enum Shape {
        /// (time, south_north, west_east); (south_north, west_east) only in a file without time.
        case field
        /// (south_north, west_east), or with time in front (frame 0 is used).
        case staticField
        /// (time, level, south_north, west_east) or one level per time (time, south_north, west_east).
        case column
        /// (time, level, south_north, west_east_stag) or (time, level, south_north_stag,
        /// west_east): one horizontal axis staggered (WRF's U and V; sizes checked when read).
        case staggeredColumn
        /// No dimension (or only dimensions of length 1).
        case scalar
        /// Checked elsewhere (the time axis).
        case unchecked
    }

    let path: String
    let timeDimension: String?
    let southNorth: String
    let westEast: String

    /// Refuses a variable whose dimension names are not the role's layout.
    func check(_ variable: Variable, as role: SourceRole) throws(IngestError) {
        let names = variable.info.dimensionNames
        let plane = [southNorth, westEast]
        let timed = timeDimension.map { [$0] + plane }
        let fits: Bool
        let expected: String
        switch role.shape {
        case .field:
            fits = names == (timed ?? plane)
            expected = "(\((timed ?? plane).joined(separator: ", ")))"
        case .staticField:
            fits = names == plane || names == timed
            expected = "(\(plane.joined(separator: ", "))), optionally with \(timeDimension ?? "time") first"
        case .column:
            if let time = timeDimension {
                fits = names == timed || (names.count == 4 && names[0] == time && !plane.contains(names[1]) && names[1] != time && Array(names.suffix(2)) == plane)
            } else {
                fits = false
            }
            expected = "(\(timeDimension ?? "Time"), a level dimension, \(plane.joined(separator: ", "))) or (\(timeDimension ?? "Time"), \(plane.joined(separator: ", ")))"
        case .staggeredColumn:
            let time = timeDimension ?? "Time"
            fits = names.count == 4 && names[0] == time && !plane.contains(names[1]) && names[1] != time
                && ((names[2] == southNorth) != (names[3] == westEast))
            expected = "(\(time), a level dimension, \(southNorth) or its staggered twin, \(westEast) or its staggered twin), one of them staggered"
        case .scalar:
            fits = variable.shape.allSatisfy { $0 == 1 }
            expected = "a scalar"
        case .unchecked:
            return
        }
        guard fits else {
            throw IngestError.badLayout(path: path, variable: variable.name,
                                        found: "(\(names.joined(separator: ", ")))", expected: expected)
        }
    }

    /// The conversion of a role's values to its canonical unit: from the variable's own
    /// `units` attribute when it has a non-empty one, else from the profile.
    ///
    /// - Throws: `IngestError.badUnits` for a unit that is unknown or of another quantity.
    func conversion(_ variable: Variable, as role: SourceRole, profile: ModelProfile) throws(IngestError) -> UnitConversion {
        guard var unit = variable.attributes["units"]?.string else { return profile.conversion(role) }
        if role == .timeMinutes, let since = unit.range(of: " since ") { unit = String(unit[..<since.lowerBound]) }
        guard !UnitConversion.normalized(unit).isEmpty else { return profile.conversion(role) }
        // A units attribute the model is known to write wrongly: the profile's unit holds.
        if role.misdeclaredUnits.contains(UnitConversion.normalized(unit)) { return profile.conversion(role) }
        guard let conversion = UnitConversion(from: unit, to: role.canonicalUnit) else {
            throw IngestError.badUnits(path: path, variable: variable.name, unit: unit, expected: role.canonicalUnit)
        }
        return conversion
    }
}

extension SourceRole {
    /// Units attributes a model writes for this role that are not its values' unit (normalized).
    /// WRF's Registry gives POTEVP "W m-2", but Noah adds ETP · DT / (XLV · ρw) to it every step
    /// (module_sf_noahdrv: `POTEVP(I,J)=POTEVP(I,J)+ETP*FDTW`, `FDTW=DT/(XLV*RHOWATER)`): metres
    /// of water since the start.
    var misdeclaredUnits: Set<String> {
        self == .potentialEvaporation ? ["w m-2", "w/m2"] : []
    }

    /// The layout this role's variable must have.
    var shape: SourceLayout.Shape {
        switch self {
        // ZS is (Time, soil_layers_stag) in wrfout, (soil_layers_stag) in some crops: its
        // values are checked against Noah's layers by `SoilLayers`.
        case .timeText, .timeMinutes, .soilDepths: return .unchecked
        case .latitude, .longitude, .terrainHeight, .cosAlpha, .sinAlpha: return .staticField
        case .modelTopPressure: return .scalar
        case .cloudFraction, .soilTemperature, .soilMoisture, .relativeSoilMoisture, .geopotentialPerturbation, .geopotentialBase,
             .pressurePerturbation, .pressureBase, .potentialTemperaturePerturbation, .vapourMixingRatio,
             .cloudWaterMixingRatio, .rainMixingRatio, .iceMixingRatio, .snowMixingRatio, .graupelMixingRatio, .windW: return .column
        case .windU, .windV: return .staggeredColumn
        default: return .field
        }
    }
}
