package vm

import "bytes"

// lastIndex is bytes.LastIndex, faster on the short literals of rules:
// bytes.LastIndex hashes every byte (Rabin-Karp), this only compares where
// the first symbol occurs.
func lastIndex(s, lit []byte) int {
	if len(lit) <= 1 {
		return bytes.LastIndex(s, lit)
	}
	first, rest := lit[0], lit[1:]
	for i := len(s) - len(lit); i >= 0; i-- {
		if s[i] == first && bytes.Equal(s[i+1:i+len(lit)], rest) {
			return i
		}
	}
	return -1
}
