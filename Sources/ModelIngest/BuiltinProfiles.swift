/// The profiles that ship with TileCast, as JSON text: the same format a site passes with
/// `--profile FILE`, and parsed by the same code. They live in the binary so that `tilecast`
/// runs from any folder; `tilecast profile wrf` prints one to start a site's own from.
enum BuiltinProfiles {
    static let all: [String: String] = ["wrf": wrf, "mm5": mm5]

    static let wrf = #"""
{
  "name": "wrf",
  "convention": "wrf",
  "description": "WRF ARW history files (wrfout), raw names as WRF writes them",
  "dimensions": {
    "time": ["Time"],
    "south_north": ["south_north"],
    "west_east": ["west_east"]
  },
  "sources": {
    "latitude":            { "names": ["XLAT", "XLAT_M"], "unit": "degree_north" },
    "longitude":           { "names": ["XLONG", "XLONG_M"], "unit": "degree_east" },
    "time_text":           { "names": ["Times"] },
    "time_minutes":        { "names": ["XTIME"], "unit": "minutes" },
    "temperature_2m":      { "names": ["T2"], "unit": "K" },
    "mixing_ratio_2m":     { "names": ["Q2"], "unit": "kg/kg" },
    "surface_pressure":    { "names": ["PSFC"], "unit": "Pa" },
    "u_10m":               { "names": ["U10"], "unit": "m/s" },
    "v_10m":               { "names": ["V10"], "unit": "m/s" },
    "rain_convective":     { "names": ["RAINC"], "unit": "mm" },
    "rain_nonconvective":  { "names": ["RAINNC"], "unit": "mm" },
    "rain_shallow":        { "names": ["RAINSH"], "unit": "mm" },
    "bucket_convective":   { "names": ["I_RAINC"], "unit": "1" },
    "bucket_nonconvective":{ "names": ["I_RAINNC"], "unit": "1" },
    "snow_water":          { "names": ["SNOWNC"], "unit": "mm" },
    "shortwave_down":      { "names": ["SWDOWN"], "unit": "W/m2" },
    "cloud_fraction":      { "names": ["CLDFRA"], "unit": "1" },
    "terrain_height":      { "names": ["HGT", "HGT_M"], "unit": "m" },
    "cos_alpha":           { "names": ["COSALPHA"], "unit": "1" },
    "sin_alpha":           { "names": ["SINALPHA"], "unit": "1" },
    "graupel":             { "names": ["GRAUPELNC"], "unit": "mm" },
    "hail":                { "names": ["HAILNC"], "unit": "mm" },
    "snow_depth":          { "names": ["SNOWH"], "unit": "m" },
    "soil_temperature":    { "names": ["TSLB"], "unit": "K" },
    "soil_moisture":       { "names": ["SMOIS"], "unit": "m3/m3" },
    "soil_depths":         { "names": ["ZS"], "unit": "m" },
    "relative_soil_moisture": { "names": ["SMCREL"], "unit": "1" },
    "surface_runoff":      { "names": ["SFROFF"], "unit": "mm" },
    "underground_runoff":  { "names": ["UDROFF"], "unit": "mm" },
    "potential_evaporation": { "names": ["POTEVP"], "unit": "m" },
    "latent_heat_flux":    { "names": ["LH"], "unit": "W/m2" },
    "sensible_heat_flux":  { "names": ["HFX"], "unit": "W/m2" },
    "shortwave_direct":    { "names": ["SWDDIR"], "unit": "W/m2" },
    "shortwave_diffuse":   { "names": ["SWDDIF"], "unit": "W/m2" },
    "cape":                { "names": ["CAPE", "AFWA_CAPE"], "unit": "J/kg" },
    "friction_velocity":   { "names": ["UST"], "unit": "m/s" },
    "geopotential_perturbation": { "names": ["PH"], "unit": "m2/s2" },
    "geopotential_base":   { "names": ["PHB"], "unit": "m2/s2" },
    "pressure_perturbation": { "names": ["P"], "unit": "Pa" },
    "pressure_base":       { "names": ["PB"], "unit": "Pa" },
    "potential_temperature_perturbation": { "names": ["T"], "unit": "K" },
    "vapour_mixing_ratio": { "names": ["QVAPOR"], "unit": "kg/kg" },
    "cloud_water_mixing_ratio": { "names": ["QCLOUD"], "unit": "kg/kg" },
    "rain_mixing_ratio":   { "names": ["QRAIN"], "unit": "kg/kg" },
    "ice_mixing_ratio":    { "names": ["QICE"], "unit": "kg/kg" },
    "snow_mixing_ratio":   { "names": ["QSNOW"], "unit": "kg/kg" },
    "graupel_mixing_ratio": { "names": ["QGRAUP"], "unit": "kg/kg" },
    "wind_u":              { "names": ["U"], "unit": "m/s" },
    "wind_v":              { "names": ["V"], "unit": "m/s" },
    "wind_w":              { "names": ["W"], "unit": "m/s" },
    "skin_temperature":    { "names": ["TSK"], "unit": "K" },
    "boundary_layer_height": { "names": ["PBLH"], "unit": "m" },
    "snow_water_equivalent": { "names": ["SNOW"], "unit": "mm" },
    "albedo":              { "names": ["ALBEDO"], "unit": "1" },
    "shortwave_direct_normal": { "names": ["SWDDNI"], "unit": "W/m2" },
    "shortwave_down_clear_sky": { "names": ["SWDNBC"], "unit": "W/m2" },
    "lightning_potential": { "names": ["LPI"], "unit": "J/kg" },
    "roughness_length":    { "names": ["ZNT"], "unit": "m" }
  }
}
"""#

    static let mm5 = #"""
{
  "name": "mm5",
  "convention": "mm5",
  "description": "MM5 output converted to netCDF by the archiver: lowercase 8-character names",
  "dimensions": {
    "time": ["time", "Time"],
    "south_north": ["i_cross"],
    "west_east": ["j_cross"]
  },
  "sources": {
    "latitude":            { "names": ["latitcrs"], "unit": "degree_north" },
    "longitude":           { "names": ["longicrs"], "unit": "degree_east" },
    "time_minutes":        { "names": ["time"], "unit": "minutes" },
    "temperature_2m":      { "names": ["t2"], "unit": "K" },
    "mixing_ratio_2m":     { "names": ["q2"], "unit": "kg/kg" },
    "u_10m":               { "names": ["u10"], "unit": "m/s" },
    "v_10m":               { "names": ["v10"], "unit": "m/s" },
    "rain_convective":     { "names": ["rain_con"], "unit": "cm" },
    "rain_nonconvective":  { "names": ["rain_non"], "unit": "cm" },
    "pstar":               { "names": ["pstarcrs"], "unit": "Pa" },
    "model_top_pressure":  { "names": ["ptop"], "unit": "Pa" },
    "sea_level_pressure":  { "names": ["psealvlc"], "unit": "Pa" },
    "terrain_height":      { "names": ["terrain"], "unit": "m" }
  }
}
"""#
}
