package gate

func AddImportForTest(src, module, name string) string {
	s, err := parseSource("t.py", []byte(src))
	if err != nil {
		panic(err)
	}
	_, edits := s.importName(module, name)
	n, err := s.apply(edits)
	if err != nil {
		panic(err)
	}
	return string(n.src)
}

func LineDiffForTest(a, b string) []Edit { return lineDiff([]byte(a), []byte(b)) }
