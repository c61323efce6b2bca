#!/usr/bin/env python3
"""Independent reference for `weather_code`: Open-Meteo's rule applied to given rows.

Written from reading Open-Meteo's server source, not TileCast's Swift code:
open-meteo/open-meteo `Sources/App/Helper/WeatherCode.swift` (`WeatherCode.calculate` and
`calculateThunderstormProbability`, commit ba13de1c), which Open-Meteo applies at query time
to the hour's series (`Sources/App/Helper/Reader/DerivedMapping.swift`, case `.weatherCode`,
with `modelDtSeconds` the series' time step). Every operation is done in float32, in the order
Open-Meteo's Swift does it with `Float`, so probabilities near the 60 % and 85 % thresholds fall
on the same side.

Inputs WRF output does not have are absent (None): lifted index and convective inhibition.
The categorical freezing-rain flag is made from the run (issue 46): grid-scale rain (the `rain`
column, mm over the window) above 0 at a 2 m temperature (`temperature_2m`, °C) at or below 0.
An absent or NaN optional input counts as not given.

Usage: weather_code_reference.py IN.csv
IN.csv has a header with cloud_cover (%), precipitation (mm over the row's window), snowfall
(cm over it), showers (mm), visibility (m), cape (J/kg), gusts (m/s), boundary_layer_height (m),
rain (mm), temperature_2m (°C), hours (the window's length) and latitude; an empty cell is an
input not held.
Prints one code per row (an integer, or "nan" when Open-Meteo gives none).
"""
import csv
import math
import sys

import numpy as np

f = np.float32


def optional(text):
    if text is None or text == "":
        return None
    value = f(float(text))
    return None if math.isnan(value) else value


def clamp01(x):
    # Swift.max(0.0, Swift.min(x, 1.0)) for finite x.
    return max(f(0), min(x, f(1)))


def thunderstorm_probability(precipitation, showers, cloudcover, gusts, cape, pbl, dt_hours, latitude):
    if cape <= f(10):
        return f(0)
    if cloudcover < f(30):
        return f(0)
    # No convective inhibition or lifted index: their blockers and scores drop out.
    abs_lat = abs(latitude)
    if abs_lat >= f(30):
        latitude_factor = f(1)
    else:
        latitude_factor = f(0.8) + (f(0.2) * (abs_lat / f(30)))
    accumulated = f(0)
    total = f(0)
    cape_weight = f(0.25)
    max_cape = f(2500) + (f(1500) * (f(1) - (min(abs_lat, f(30)) / f(30))))
    cape_score = clamp01((cape - f(300)) / (max_cape - f(300)))
    accumulated += cape_score * cape_weight
    total += cape_weight
    reference_per_hour = f(2) + (f(3) * (f(1) - (min(abs_lat, f(30)) / f(30))))
    reference = reference_per_hour * dt_hours
    precip_weight = f(0.25)
    if showers is not None and showers > f(0):
        accumulated += clamp01(showers / reference) * precip_weight
        total += precip_weight
    else:
        fallback = reference * f(1.6)
        accumulated += clamp01(precipitation / fallback) * precip_weight * f(0.6)
        total += precip_weight * f(0.6)
    if pbl is not None:
        w = f(0.075)
        accumulated += clamp01((pbl - f(300)) / f(1200)) * w
        total += w
    if gusts is not None:
        w = f(0.075)
        accumulated += clamp01((gusts - f(5)) / f(13)) * w
        total += w
    base = (accumulated / total) * f(100)
    if (showers if showers is not None else precipitation) <= f(0):
        base *= f(0.7)
    if cloudcover >= f(60):
        cloud_factor = f(1)
    else:
        cloud_factor = f(0.6) + (f(0.4) * ((cloudcover - f(30)) / f(30)))
    base *= cloud_factor
    base *= latitude_factor
    return max(f(0), min(base, f(100)))


def in_range(x, low, high=None):
    return x >= low and (high is None or x < high)


def calculate(cloudcover, precipitation, showers, snowfall, gusts, cape, pbl, visibility, dt_hours, latitude,
              rain=None, temperature=None):
    if not (math.isfinite(cloudcover) and math.isfinite(precipitation) and math.isfinite(snowfall)):
        return None
    if cape is not None:
        p = thunderstorm_probability(precipitation, showers, cloudcover, gusts, cape, pbl, dt_hours, latitude)
        if p > f(85):
            return 96
        if p > f(60):
            return 95
    snow_rate = snowfall / dt_hours
    rain_rate = precipitation / dt_hours
    # Open-Meteo's `categoricalFreezingRain >= 1` branch, on the total precipitation's rate.
    if rain is not None and temperature is not None and rain > f(0) and temperature <= f(0):
        for low, high, code in ((0.01, 0.5, 56), (0.5, 1.0, 57), (1.0, 1.3, 57), (1.3, 2.5, 66), (2.5, 7.6, 67), (7.6, None, 67)):
            if in_range(rain_rate, f(low), None if high is None else f(high)):
                return code
    if (showers if showers is not None else f(0)) > f(0) or (cape if cape is not None else f(0)) >= f(800):
        if in_range(snow_rate, f(0.01), f(0.2)) or in_range(snow_rate, f(0.2), f(0.8)):
            return 85
        if in_range(snow_rate, f(0.8)):
            return 86
        for low, high, code in ((1.3, 2.5, 80), (2.5, 7.6, 81), (7.6, None, 82)):
            if in_range(rain_rate, f(low), None if high is None else f(high)):
                return code
    for low, high, code in ((0.01, 0.2, 71), (0.2, 0.8, 73), (0.8, None, 75)):
        if in_range(snow_rate, f(low), None if high is None else f(high)):
            return code
    for low, high, code in ((0.01, 0.5, 51), (0.5, 1.0, 53), (1.0, 1.3, 55), (1.3, 2.5, 61), (2.5, 7.6, 63), (7.6, None, 65)):
        if in_range(rain_rate, f(low), None if high is None else f(high)):
            return code
    if visibility is not None and visibility <= f(1000):
        return 45
    for low, high, code in ((0, 20, 0), (20, 50, 1), (50, 80, 2), (80, None, 3)):
        if in_range(cloudcover, f(low), None if high is None else f(high)):
            return code
    return None


def main():
    with open(sys.argv[1], newline="") as handle:
        for row in csv.DictReader(handle):
            code = calculate(
                cloudcover=f(float(row["cloud_cover"])), precipitation=f(float(row["precipitation"])),
                showers=optional(row.get("showers")), snowfall=f(float(row["snowfall"])) if row.get("snowfall") else f(0),
                gusts=optional(row.get("gusts")), cape=optional(row.get("cape")),
                pbl=optional(row.get("boundary_layer_height")), visibility=optional(row.get("visibility")),
                dt_hours=f(float(row["hours"])), latitude=f(float(row["latitude"])),
                rain=optional(row.get("rain")), temperature=optional(row.get("temperature_2m")))
            print("nan" if code is None else code)


if __name__ == "__main__":
    main()
