package main

import (
	"strings"
	"testing"
)

func TestSummarise(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"example/a"}`,
		`{"Action":"run","Package":"example/a","Test":"TestOK"}`,
		`{"Action":"output","Package":"example/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}`,
		`{"Action":"output","Package":"example/a","Test":"TestOK","Output":"    a_test.go:5: chatter of a passing test\n"}`,
		`{"Action":"pass","Package":"example/a","Test":"TestOK"}`,
		`{"Action":"run","Package":"example/a","Test":"TestSVGRenders"}`,
		`{"Action":"output","Package":"example/a","Test":"TestSVGRenders","Output":"=== RUN   TestSVGRenders\n"}`,
		`{"Action":"output","Package":"example/a","Test":"TestSVGRenders","Output":"    render_test.go:110: chromium not found\n"}`,
		`{"Action":"output","Package":"example/a","Test":"TestSVGRenders","Output":"--- SKIP: TestSVGRenders (0.00s)\n"}`,
		`{"Action":"skip","Package":"example/a","Test":"TestSVGRenders"}`,
		`{"Action":"output","Package":"example/a","Output":"PASS\n"}`,
		`{"Action":"output","Package":"example/a","Output":"ok  \texample/a\t0.01s\n"}`,
		`{"Action":"pass","Package":"example/a"}`,
		`{"Action":"run","Package":"example/b","Test":"TestBad"}`,
		`{"Action":"output","Package":"example/b","Test":"TestBad","Output":"    b_test.go:9: got 1, want 2\n"}`,
		`{"Action":"output","Package":"example/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}`,
		`{"Action":"fail","Package":"example/b","Test":"TestBad"}`,
		`{"Action":"output","Package":"example/b","Output":"FAIL\texample/b\t0.01s\n"}`,
		`{"Action":"fail","Package":"example/b"}`,
	}, "\n")
	var out strings.Builder
	failed, err := summarise(strings.NewReader(in), &out, &out)
	if err != nil || !failed {
		t.Fatalf("failed %v err %v", failed, err)
	}
	got := out.String()
	for _, want := range []string{"ok  \texample/a\t0.01s\n", "b_test.go:9: got 1, want 2", "FAIL\texample/b",
		"SKIPPED Go tests (1)", "example/a TestSVGRenders: render_test.go:110: chromium not found"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "chatter of a passing test") {
		t.Errorf("summary shows a passing test's output:\n%s", got)
	}
}
