"""Tables that join: the API's tables hold the data package's columns and keys, so that a calendar joins
places joins variants joins witnesses in pandas — tested on the real data."""

from __future__ import annotations

import pytest

import dianli
from dianli.opendata import tables as package

pd = pytest.importorskip("pandas")
YEAR = 1752


@pytest.fixture(scope="module")
def calendar() -> dianli.Table:
    return dianli.calendar(YEAR)


def test_the_calendar_of_every_place_is_the_data_package_s(calendar: dianli.Table) -> None:
    """The same rows and columns as ``dianli export``'s observances table of the year."""
    expected = dianli.Table("observances", calendar.columns, package.observance_rows([YEAR]))
    assert calendar.rows == expected.rows
    assert calendar.key == ("place", "year", "number")


@pytest.mark.parametrize(
    ("made", "rows"),
    [
        (lambda: dianli.places(), package.place_period_rows),
        (lambda: dianli.witnesses(), package.witness_rows),
    ],
    ids=["place_periods", "witnesses"],
)
def test_tables_are_the_data_package_s(made, rows) -> None:  # type: ignore[no-untyped-def]
    table = made()
    assert table.rows == dianli.Table("", table.columns, rows()).rows


def test_calendar_joins_places_and_witnesses(calendar: dianli.Table) -> None:
    days = calendar.to_frame()
    units = dianli.places(YEAR).to_frame()
    texts = dianli.witnesses().to_frame()
    joined = days.merge(units, on=["place", "year"], suffixes=("", "_place"), validate="many_to_one")
    joined = joined.merge(texts, left_on="witness", right_on="id", validate="many_to_one")
    assert len(joined) == len(days)
    assert joined["chgis_id"].notna().mean() > 0.9  # CHGIS ids for the units CHGIS has
    assert (joined["witness"] == joined["governing_witness"]).all()
    assert (joined["compiled_year"] <= YEAR).all()  # a place follows a witness written by then
    assert (
        pd.to_datetime(joined["day"].dropna()).dt.year.isin([YEAR - 1, YEAR, YEAR + 1]).all()
    )  # the Chinese year


def test_calendar_joins_variants_on_place_and_year(calendar: dianli.Table) -> None:
    """Which reading of each rule of 祀先師 was in force where and when the rite was held: a join on place
    and the year's range, checked against the rule's own lookup."""
    days = calendar.to_frame()
    rite = dianli.ceremony("祀先師", "臺灣府", YEAR).rite
    held = days[(days["rite"] == rite) & days["part"].isna()]
    found = dianli.variants(rite=rite)
    readings = found.to_frame().dropna(subset=["place"])
    joined = held.merge(readings, on=["place", "rite"])
    joined = joined[(joined["from_year"] <= joined["year"]) & (joined["year"] <= joined["until_year"])]
    assert len(joined) > 0
    assert (joined["witness"] == joined["governing_witness"]).all()
    for row in joined.drop_duplicates(["place", "rule"]).itertuples():
        assert found.at(row.place, YEAR)[row.rule] == row.value


def test_frames_name_their_key_and_provenance(calendar: dianli.Table) -> None:
    frame = calendar.to_frame()
    assert frame.attrs["key"] == ["place", "year", "number"]
    assert frame.attrs["dianli_version"] == dianli.__version__
    assert len(frame.attrs["data_digest"]) == 64
    assert not frame.duplicated(subset=frame.attrs["key"]).any()


TABLES = {
    "calendar of a place": lambda: dianli.calendar(range(1750, 1753), place="臺灣府"),
    "places of a year": lambda: dianli.places(YEAR),
    "periods of places": lambda: dianli.places(),
    "witnesses": lambda: dianli.witnesses(),
    "sections of a witness": lambda: dianli.witness(dianli.witnesses()[0]["id"]).sections,
    "variants of a rite": lambda: dianli.variants(rite="祀先師"),
    "dated events": lambda: dianli.timeline(place="諸羅縣"),
    "a ceremony's steps": lambda: dianli.ceremony("祀先師", "臺灣府", YEAR).steps,
    "a ceremony's people": lambda: dianli.ceremony("祀先師", "臺灣府", YEAR).people,
    "a ceremony's prayers": lambda: dianli.ceremony("祀先師", "臺灣府", YEAR).prayers,
    "a ceremony's music": lambda: dianli.ceremony("祀先師", "臺灣府", YEAR).music,
    "the spring ox": lambda: dianli.spring_ox(YEAR).attributes,
    "a score": lambda: dianli.music("寧平").score,
    "a collation": lambda: dianli.collate("社稷").to_table(),
}


@pytest.mark.parametrize("name", list(TABLES))
def test_every_table_has_a_key_that_is_one_row(name: str) -> None:
    frame = TABLES[name]().to_frame()
    key = frame.attrs["key"]
    assert key and set(key) <= set(frame.columns)
    assert len(frame) > 0
    assert not frame.duplicated(subset=key).any(), frame[frame.duplicated(subset=key, keep=False)][key].head()
