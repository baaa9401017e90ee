"""Tests of mutate.py's list format and snippet matching (`make test` runs them; no build)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

SOURCE = """struct S {
    func a() -> Int {
        guard x else { return 0 }
        return 1
    }
    func b() -> Int {
        guard x else { return 0 }
        return 2
    }
}
"""


def mutant(original, replacement, name="m"):
    text = f"== {name}\nfamily: map\nfile: F.swift\nwrong: w\n--- original\n{original}\n+++ mutant\n{replacement}\n"
    return mutate.parse(text)[0]


class ApplyTests(unittest.TestCase):
    def test_a_snippet_matches_whole_lines_whatever_their_indentation_and_is_reindented(self):
        m = mutant("guard x else { return 0 }\nreturn 1", "return 1")
        self.assertIn("    func a() -> Int {\n        return 1\n    }", mutate.apply(SOURCE, m))

    def test_an_ellipsis_stands_for_any_text_within_a_line(self):
        m = mutant("func b() -> …{", "func b() -> Int { // mutated")
        self.assertIn("    func b() -> Int { // mutated\n", mutate.apply(SOURCE, m))

    def test_a_snippet_that_no_longer_occurs_is_stale(self):
        m = mutant("return 3", "return 4")
        with self.assertRaisesRegex(mutate.ListError, "stale: 'return 3…' is no longer in F.swift"):
            mutate.apply(SOURCE, m)

    def test_a_snippet_that_occurs_twice_is_stale_and_names_the_lines(self):
        m = mutant("guard x else { return 0 }", "guard x else { return 9 }")
        with self.assertRaisesRegex(mutate.ListError, r"occurs 2 times in F.swift \(lines 3, 7\)"):
            mutate.apply(SOURCE, m)

    def test_part_of_a_line_does_not_match(self):
        m = mutant("return", "return 5")
        with self.assertRaisesRegex(mutate.ListError, "is no longer in"):
            mutate.apply(SOURCE, m)


class ParseTests(unittest.TestCase):
    def test_fields_snippets_and_comments(self):
        text = ("# a comment\n== one\nfamily: map\nfile: F.swift\nwrong: a wrong\n  reading\n"
                "equivalent: because\n--- original\n    a\n# not part of the snippet\n    b\n+++ mutant\n    c\n\n"
                "== two\nfamily: filter\nfile: G.swift\nwrong: w\n--- original\nx\n+++ mutant\n")
        one, two = mutate.parse(text)
        self.assertEqual((one.name, one.family, one.file, one.equivalent), ("one", "map", "F.swift", "because"))
        self.assertEqual([(e.original, e.replacement) for e in one.edits], [(["a", "b"], ["c"])])
        self.assertEqual([(e.original, e.replacement) for e in two.edits], [(["x"], [])])

    def test_a_missing_field_is_an_error_naming_the_mutant(self):
        with self.assertRaisesRegex(mutate.ListError, "mutants.txt:1: m: needs family:, file: and wrong:"):
            mutate.parse("== m\nfile: F.swift\nwrong: w\n--- original\nx\n+++ mutant\ny\n")

    def test_two_mutants_with_one_name_are_an_error(self):
        text = "== m\nfamily: a\nfile: F\nwrong: w\n--- original\nx\n+++ mutant\ny\n"
        with self.assertRaisesRegex(mutate.ListError, "a second mutant with this name"):
            mutate.parse(text + text)

    def test_a_replacement_equal_to_its_original_is_an_error(self):
        with self.assertRaisesRegex(mutate.ListError, "a replacement equal to its original"):
            mutant("x", "  x")

    def test_an_unknown_field_is_an_error(self):
        with self.assertRaisesRegex(mutate.ListError, "mutants.txt:2: unknown field 'famly'"):
            mutate.parse("== m\nfamly: a\n")


class ListTests(unittest.TestCase):
    def test_every_mutant_in_the_list_applies_to_the_tree(self):
        self.assertEqual(mutate.check(mutate.load()), [])


if __name__ == "__main__":
    unittest.main()


class FamilyTableTests(unittest.TestCase):
    def test_every_family_of_the_catalogue_is_listed_fewest_mutants_first(self):
        a = mutant("return 1", "return 2", name="a")
        b = mutant("return 1", "return 3", name="b")
        c = mutant("return 1", "return 4", name="c")
        c.family = "filter"
        rows = mutate.family_table([(a, {"fate": "killed"}), (b, {"fate": "equivalent"}), (c, {"fate": "survived"})])
        table = [line for line in rows if line.startswith("| ") and not line.startswith("| family")]
        families = [line.split(" | ")[0][2:] for line in table]
        # Every .marble file of marbles/operators has a row, with or without mutants.
        operators = os.path.join(mutate.ROOT, "marbles", "operators")
        self.assertEqual(sorted(families), sorted(name[:-7] for name in os.listdir(operators) if name.endswith(".marble")))
        self.assertIn("| map | 2 | 1 | 1 | 0 |", table)
        self.assertIn("| filter | 1 | 0 | 0 | 1 |", table)
        counts = [int(line.split(" | ")[1]) for line in table]
        self.assertEqual(counts, sorted(counts))
