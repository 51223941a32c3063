package sarif

import (
	"math"
	"unicode/utf8"

	"github.com/acg-dev/acg/extract"
)

// fileCache converts SARIF positions into extract.Points (UTF-16 columns
// and byte offsets) against the files' current bytes.
type fileCache struct {
	source func(string) []byte
	files  map[string]*srcFile
}

type srcFile struct {
	src   []byte
	lines []int
}

func newFileCache(source func(string) []byte) *fileCache {
	return &fileCache{source: source, files: map[string]*srcFile{}}
}

// point converts a 1-based line and column counted in colKind units
// (SARIF columnKind: unicodeCodePoints or utf16CodeUnits). Without the
// file's bytes the column is kept and the byte offset is -1.
func (fc *fileCache) point(rel string, line, col int, colKind string) extract.Point {
	// Points are int32 (a file acg reads is at most a few MB); a position
	// past that in another tool's SARIF is past the end of any such file,
	// and is kept as the largest one rather than wrapped negative.
	line, col = min(line, math.MaxInt32), min(col, math.MaxInt32)
	p := extract.Point{Line: int32(line), Col: int32(col), Byte: -1}
	if fc.source == nil {
		return p
	}
	f, ok := fc.files[rel]
	if !ok {
		if src := fc.source(rel); src != nil {
			f = &srcFile{src: src, lines: extract.LineStarts(src)}
		}
		fc.files[rel] = f
	}
	if f == nil || line > len(f.lines) {
		return p
	}
	start := f.lines[line-1]
	end := len(f.src)
	if line < len(f.lines) {
		end = f.lines[line] - 1 // the newline
	}
	off := start
	for n := 1; n < col && off < end; {
		r, size := utf8.DecodeRune(f.src[off:end])
		step := 1
		if colKind == "utf16CodeUnits" && r >= 0x10000 {
			step = 2
		}
		n += step
		off += size
	}
	return extract.PointAt(f.src, f.lines, off)
}
