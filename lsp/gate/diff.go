package gate

import "strings"

// lineDiff returns the edits that turn a into b, one per run of changed
// lines (Myers' O(ND) algorithm: a fix changes few lines of a large file, so
// D is small). Offsets are bytes of a.
func lineDiff(a, b []byte) []Edit {
	al, bl := splitLines(string(a)), splitLines(string(b))
	// Trim the common head and tail: the search then covers the changes only.
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	ops := myers(al[pre:len(al)-suf], bl[pre:len(bl)-suf])
	offs := make([]int, len(al)+1)
	for i, l := range al {
		offs[i+1] = offs[i] + len(l)
	}
	var out []Edit
	i, j := pre, pre // positions in a and b
	for k := 0; k < len(ops); {
		if ops[k] == same {
			i, j, k = i+1, j+1, k+1
			continue
		}
		start, text := i, strings.Builder{}
		for k < len(ops) && ops[k] != same {
			if ops[k] == del {
				i++
			} else {
				text.WriteString(bl[j])
				j++
			}
			k++
		}
		out = append(out, Edit{Start: offs[start], End: offs[i], Text: text.String()})
	}
	return out
}

// splitLines splits after each newline, keeping it.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

type op uint8

const (
	same op = iota
	del
	ins
)

// myers returns the edit script from a to b.
func myers(a, b []string) []op {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return nil
	}
	off := max
	v := make([]int, 2*max+2)
	var trace [][]int
	for d := 0; d <= max; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: insertion
			} else {
				x = v[off+k-1] + 1 // right: deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, d, off)
			}
		}
	}
	return nil
}

func backtrack(trace [][]int, a, b []string, d, off int) []op {
	x, y := len(a), len(b)
	var rev []op
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var pk int
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			rev = append(rev, same)
			x, y = x-1, y-1
		}
		if x == px {
			rev = append(rev, ins)
		} else {
			rev = append(rev, del)
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		rev = append(rev, same)
		x, y = x-1, y-1
	}
	out := make([]op, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}
