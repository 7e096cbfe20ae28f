"""docs/rules.md is the spec the code cites: every "RULES n.n" (or "RULES n", a whole section)
written in the code, the templates or the tests names a rule that is there. Which rules no test
cites yet is a report, not a failure."""

import re

from ..support.processes import ROOT

RULES = ROOT / "docs" / "rules.md"
SEARCHED = ("accounts", "bench", "cashier", "config", "static", "tables", "templates", "tests")
SUFFIXES = {".py", ".html", ".js", ".txt", ".md"}
NUMBER = r"\d+(?:\.\d+)?"
# "RULES 6.2", "RULES 2.7, 2.11", "RULES 6.1 and 6.2", "RULES 2.3-2.8", "RULES 2.9, 2.10, 2.11."
CITATION = re.compile(rf"RULES\s+({NUMBER}(?:\s*(?:,|and|-|–)\s*{NUMBER})*)")


def rule_numbers(text: str) -> set[str]:
    sections = set(re.findall(r"^## (\d+)\. ", text, flags=re.MULTILINE))
    rules = set(re.findall(r"^(\d+\.\d+) ", text, flags=re.MULTILINE))
    return sections | rules


def cited(text: str) -> set[str]:
    """The rule numbers a text cites; a range ("2.3-2.8") cites every rule in it."""
    numbers = set()
    for citation in CITATION.findall(text):
        for part in re.split(r"\s*(?:,|and)\s*", citation):
            bounds = re.split(r"\s*[-–]\s*", part)
            numbers.add(bounds[0])
            if len(bounds) == 2:
                (section, first), (last_section, last) = (bound.split(".") for bound in bounds)
                assert section == last_section, f"a range across sections: {citation}"
                numbers.update(f"{section}.{n}" for n in range(int(first), int(last) + 1))
    return numbers


def citations_in_project() -> dict[str, set[str]]:
    """Each cited number, with the files citing it."""
    found: dict[str, set[str]] = {}
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file():
                for number in cited(path.read_text(encoding="utf-8", errors="replace")):
                    found.setdefault(number, set()).add(str(path.relative_to(ROOT)))
    return found


def test_citations_are_read_whole():
    expected = {"2.7", "2.11", "6.2", "6", "2.3", "2.4", "2.5"}
    assert cited("RULES 2.7, 2.11 and 6.2; RULES 6 and RULES 2.3-2.5.") == expected
    assert cited("see RULES.md") == set()


def test_every_rule_cited_in_the_code_and_tests_is_in_docs_rules():
    numbers = rule_numbers(RULES.read_text(encoding="utf-8"))
    citations = citations_in_project()
    assert len(citations) > 20  # the search finds the citations
    missing = {number: sorted(files) for number, files in citations.items() if number not in numbers}
    assert not missing, f"cited but not in docs/rules.md: {missing}"


def test_docs_rules_numbers_each_section_from_one_without_gaps():
    """Numbered as the room's rules are (1.1-1.4, 2.1-2.11, ..., 6.5, 7.5-7.6, 8.1-8.12)."""
    text = RULES.read_text(encoding="utf-8")
    rules = re.findall(r"^(\d+)\.(\d+) ", text, flags=re.MULTILINE)
    by_section: dict[int, list[int]] = {}
    for section, number in rules:
        by_section.setdefault(int(section), []).append(int(number))
    assert {s: len(n) for s, n in by_section.items()} == {1: 4, 2: 11, 3: 9, 4: 2, 5: 5, 6: 5, 7: 6, 8: 12}
    for numbers in by_section.values():
        assert numbers == list(range(1, len(numbers) + 1))
    assert set(re.findall(r"^## (\d+)\. ", text, flags=re.MULTILINE)) == {str(s) for s in by_section}
