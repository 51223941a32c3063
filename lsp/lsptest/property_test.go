package lsptest

import "testing"

func TestParseProperty(t *testing.T) {
	def := PropertyRun{First: 1, Last: 3, Steps: 10}
	for _, c := range []struct {
		seeds, steps string
		want         PropertyRun
	}{
		{"", "", def},
		{"1-200", "50", PropertyRun{1, 200, 50}},
		{"7", "", PropertyRun{7, 7, 10}},
		{" 4 - 9 ", " 0 ", PropertyRun{4, 9, 0}},
	} {
		got, err := parseProperty(def, c.seeds, c.steps)
		if err != nil || got != c.want {
			t.Errorf("%q %q: %+v, %v; want %+v", c.seeds, c.steps, got, err, c.want)
		}
	}
	for _, c := range [][2]string{{"x", ""}, {"5-1", ""}, {"1-", ""}, {"", "-1"}, {"", "many"}} {
		if _, err := parseProperty(def, c[0], c[1]); err == nil {
			t.Errorf("%q %q accepted", c[0], c[1])
		}
	}
}
