"""Reads issue 28's variables from tilecast serve's format=flatbuffers with the official
Open-Meteo SDK (unmodified) and compares each column's Variable, Unit, altitude and depth with
the SDK's own enums looked up by name (openmeteo_sdk.Variable / openmeteo_sdk.Unit, generated
from flatbuffers/weather_api.fbs), and its values with the same request as JSON.
Prints one JSON object; ServerTests.FlatBuffersTests checks it. Argument: the server's base URL."""
import sys, json, urllib.request, openmeteo_requests
from openmeteo_sdk.Variable import Variable
from openmeteo_sdk.Unit import Unit
from openmeteo_sdk.Aggregation import Aggregation
base = sys.argv[1]
# (requested name, SDK Variable name, SDK Unit name, altitude, depth, depth_to)
hourly = [
    ("latent_heat_flux", "latent_heat_flux", "watt_per_square_metre", 0, 0, 0),
    ("sensible_heat_flux", "sensible_heat_flux", "watt_per_square_metre", 0, 0, 0),
    ("evapotranspiration", "evapotranspiration", "millimetre", 0, 0, 0),
    ("snowfall_water_equivalent", "snowfall_water_equivalent", "millimetre", 0, 0, 0),
    ("runoff", "runoff", "millimetre", 0, 0, 0),
    ("hail", "hail", "millimetre", 0, 0, 0),
    ("air_density_2m", "air_density", "kilogram_per_cubic_metre", 2, 0, 0),
    ("soil_moisture_index_10_to_40cm", "soil_moisture_index", "fraction", 0, 10, 40),
    ("shortwave_radiation_instant", "shortwave_radiation_instant", "watt_per_square_metre", 0, 0, 0),
    ("terrestrial_radiation", "terrestrial_radiation", "watt_per_square_metre", 0, 0, 0),
    ("terrestrial_radiation_instant", "terrestrial_radiation_instant", "watt_per_square_metre", 0, 0, 0),
    ("global_tilted_irradiance", "global_tilted_irradiance", "watt_per_square_metre", 0, 0, 0),
    ("global_tilted_irradiance_instant", "global_tilted_irradiance_instant", "watt_per_square_metre", 0, 0, 0),
]
daily = [("snowfall_water_equivalent_sum", "snowfall_water_equivalent", "millimetre", "sum")]
params = {"latitude": 29.865, "longitude": 86.8444, "hourly": [h[0] for h in hourly], "daily": [d[0] for d in daily],
          "models": "wrf", "start_date": "2005-09-21", "end_date": "2005-09-21", "timeformat": "unixtime",
          "tilt": 35, "azimuth": -20}
response = openmeteo_requests.Client().weather_api(base + "/v1/forecast", params=dict(params))[0]
q = "&".join(f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in params.items())
js = json.load(urllib.request.urlopen(base + "/v1/forecast?" + q))


def same(values, reference):
    return len(values) == len(reference) and all(
        (b is None and a != a) or (b is not None and abs(a - b) < 1e-4) for a, b in zip(values, reference))


out = {"hourly": [], "daily": [], "units": js.get("hourly_units", {})}
h, d = response.Hourly(), response.Daily()
for i, (name, variable, unit, altitude, depth, depth_to) in enumerate(hourly):
    v = h.Variables(i)
    values = [v.Values(k) for k in range(v.ValuesLength())]
    out["hourly"].append({"name": name, "variable_ok": v.Variable() == getattr(Variable, variable), "unit_ok": v.Unit() == getattr(Unit, unit),
                          "altitude": v.Altitude(), "want_altitude": altitude, "depth": [v.Depth(), v.DepthTo()], "want_depth": [depth, depth_to],
                          "same_as_json": same(values, js["hourly"][name]), "known": sum(b is not None for b in js["hourly"][name])})
for i, (name, variable, unit, aggregation) in enumerate(daily):
    v = d.Variables(i)
    values = [v.Values(k) for k in range(v.ValuesLength())]
    out["daily"].append({"name": name, "variable_ok": v.Variable() == getattr(Variable, variable), "unit_ok": v.Unit() == getattr(Unit, unit),
                         "aggregation_ok": v.Aggregation() == getattr(Aggregation, aggregation), "same_as_json": same(values, js["daily"][name])})
# Open-Meteo's older spellings of the fluxes, answered under the name asked for.
aliases = json.load(urllib.request.urlopen(base + "/v1/forecast?latitude=29.865&longitude=86.8444&models=wrf&start_date=2005-09-21"
                                           "&end_date=2005-09-21&hourly=latent_heatflux,latent_heat_flux"))
out["alias_same"] = aliases["hourly"]["latent_heatflux"] == aliases["hourly"]["latent_heat_flux"]
print(json.dumps(out))
