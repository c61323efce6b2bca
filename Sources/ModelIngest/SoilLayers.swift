import NetCDF

/// WRF's Noah land-surface model writes soil fields on four layers, 0-10, 10-40, 40-100 and
/// 100-200 cm (layer centres ZS = 0.05, 0.25, 0.7, 1.5 m; Chen & Dudhia 2001): the layers
/// Open-Meteo names soil_temperature_0_to_10cm and so on. Other land-surface models (RUC's
/// six or nine levels, Noah-MP with other thicknesses) put other depths under the same
/// names, so the soil variables are declared only when a file's layers are Noah's.
enum SoilLayers {
    /// Noah's layer centres, metres.
    static let noahCentres: [Float] = [0.05, 0.25, 0.7, 1.5]

    /// Why the file's TSLB/SMOIS are not on Noah's layers; nil when they are.
    static func problem(file: NetCDFFile, variables: [SourceRole: String]) -> String? {
        for role in [SourceRole.soilTemperature, .soilMoisture, .relativeSoilMoisture] {
            guard let name = variables[role], let variable = try? file.variable(name) else { continue }
            guard variable.shape.count == 4, variable.shape[1] == noahCentres.count else {
                return "\(name) has \(variable.shape.count == 4 ? variable.shape[1] : 1) soil levels, not Noah's 4"
            }
        }
        guard let name = variables[.soilDepths], let depths = try? file.variable(name).readFloats(),
              depths.count >= noahCentres.count else {
            return "no ZS to say the soil layers' depths"
        }
        let first = Array(depths.prefix(noahCentres.count))
        guard zip(first, noahCentres).allSatisfy({ abs($0 - $1) < 0.005 }) else {
            return "\(name) = \(first.map { "\($0)" }.joined(separator: ", ")) m, not Noah's layer centres 0.05, 0.25, 0.7, 1.5 m"
        }
        return nil
    }
}
