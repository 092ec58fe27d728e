package complexity

import (
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"math/bits"
	"slices"
	"sync"
)

// ZlibLength returns the length in bytes of the zlib stream (RFC 1950) that
// the C zlib library writes for data at the given level (1–9) with its other
// settings at their defaults (32 KiB window, memLevel 8, default strategy):
// len(zlib.compress(data, level)) in Python and, at zlib's default level 6,
// what the Λ_one papers measured with R's memCompress(type = "gzip"). Go's
// compress/zlib cannot stand in: it parses differently and ends with an
// empty stored block, so its streams are longer. zlib-ng, which some systems
// ship in zlib's place, writes different streams too.
//
// The stream is really built, by re-doing what zlib 1.2.13's deflate.c and
// trees.c do: the same hash chains and match search, greedy (levels 1–3)
// or lazy (4–9) parsing, blocks cut after 16383 symbols, and for each block
// the smallest of a stored, fixed-code or dynamic-code block as zlib
// estimates them, with the Huffman codes built by zlib's own tie-breaking and
// length limiting. The tests check it byte for byte against zlib 1.2.13. It
// panics if level is outside 1–9.
func ZlibLength(data []byte, level int) int {
	return len(zlibCompress(data, level))
}

const (
	zMinMatch     = 3
	zMaxMatch     = 258
	zWindow       = 1 << 15
	zMinLookahead = zMaxMatch + zMinMatch + 1 // zlib refills its window below this
	zMaxDist      = zWindow - zMinLookahead   // the farthest match zlib looks at
	zTooFar       = 4096                      // lazy levels drop farther length-3 matches
	zBlockSymbols = 1<<14 - 1                 // symbol buffer size at memLevel 8
	zHashBits     = 15                        // memLevel + 7
)

// zConfig is a row of deflate.c's configuration_table.
type zConfig struct{ good, lazy, nice, chain int }

var zConfigs = [10]zConfig{
	// Levels 1–3 parse greedily; lazy is then the longest match whose
	// positions are still entered in the hash chains.
	1: {4, 4, 8, 4}, 2: {4, 5, 16, 8}, 3: {4, 6, 32, 32},
	4: {4, 4, 16, 16}, 5: {8, 16, 32, 32}, 6: {8, 16, 128, 128},
	7: {8, 32, 128, 256}, 8: {32, 128, 258, 1024}, 9: {32, 258, 258, 4096},
}

// zSymbol is a literal byte (dist 0) or a match of length lc+3 at distance dist.
type zSymbol struct{ lc, dist int }

// zDeflater is the part of zlib's deflate_state that decides the output.
// Positions are offsets into data; zlib's are relative to a window that slides
// by 32 KiB, and base is where that window starts now, because after a slide
// positions at or before it read as "none" and a block reaching back before it
// can no longer be stored.
type zDeflater struct {
	data       []byte
	cfg        zConfig
	head       []int32 // hash → latest position with that hash
	prev       []int32 // position → the previous one with the same hash
	matchStart int
	syms       []zSymbol
	blockStart int
	base       int
	out        []byte
	trees      []int // zCodeLengths' working arrays, kept from tree to tree
	arena      []int // a block's frequencies, lengths and codes (ints)
	bitBuf     uint64
	bitCount   uint
}

func zlibCompress(data []byte, level int) []byte {
	if level < 1 || level > 9 {
		panic(fmt.Sprintf("complexity: zlib level %d is not in 1..9", level))
	}
	buf := zBuffers.Get().(*zBuffer)
	defer zBuffers.Put(buf)
	d := &zDeflater{data: data, cfg: zConfigs[level], head: buf.head, prev: make([]int32, len(data)), trees: buf.trees, arena: buf.arena}
	defer func() { d.clearHeads(); buf.trees, buf.arena = d.trees, d.arena[:0] }()
	// The header records the level only as a hint (FLEVEL), rounded as zlib does.
	flags := [10]int{0, 0, 1, 1, 1, 1, 2, 3, 3, 3}[level]
	header := 0x7800 | flags<<6
	header += 31 - header%31
	d.out = append(d.out, byte(header>>8), byte(header))
	if level <= 3 {
		d.deflateFast()
	} else {
		d.deflateSlow()
	}
	return binary.BigEndian.AppendUint32(d.out, adler32.Checksum(data))
}

// zBuffer is what one compression lends the next: the hash heads, 128 KiB,
// the trees' working arrays and a block's arrays (ints). Allocating and
// zeroing them was most of the bytes a Λ_one test allocated (its patterns
// and spaces are a few bytes long).
// The heads come out of the pool all zero, as make gives them, because
// clearHeads puts back the zeros; zCodeLengths zeroes its arrays itself.
type zBuffer struct {
	head  []int32
	trees []int
	arena []int
}

var zBuffers = sync.Pool{New: func() any { return &zBuffer{head: make([]int32, 1<<zHashBits)} }}

// ints lends n zeros from the arena: a block's arrays live until the next
// block, so flushBlock empties the arena as it starts. A slice lent
// before the arena grows keeps the old array, which stays valid.
func (d *zDeflater) ints(n int) []int {
	if len(d.arena)+n > cap(d.arena) {
		d.arena = make([]int, 0, max(2*cap(d.arena), n, 2048))
	}
	s := d.arena[len(d.arena) : len(d.arena)+n]
	d.arena = d.arena[:len(d.arena)+n]
	clear(s)
	return s
}

// clearHeads zeroes the heads insert may have set: only the hashes of
// the data's strings, so a short input costs little.
func (d *zDeflater) clearHeads() {
	if len(d.data) > len(d.head)/8 {
		clear(d.head)
		return
	}
	for pos := 0; pos+zMinMatch <= len(d.data); pos++ {
		d.head[zHash(d.data, pos)] = 0
	}
}

// zHash is zlib's rolling hash of the three bytes at pos: it shifts by 5 in
// 15 bits, so it depends on exactly those bytes.
func zHash(data []byte, pos int) int {
	return (int(data[pos])<<10 ^ int(data[pos+1])<<5 ^ int(data[pos+2])) & (1<<zHashBits - 1)
}

// insert enters the string at pos in its hash chain and returns the chain's
// previous head.
func (d *zDeflater) insert(pos int) int {
	h := zHash(d.data, pos)
	old := d.head[h]
	d.prev[pos], d.head[h] = old, int32(pos)
	return int(old)
}

// longestMatch is zlib's longest_match: walk at most chain candidates
// (a quarter as many once a good match is in hand), keep the first longest,
// stop at a nice length. Only lengths above bestLen count.
func (d *zDeflater) longestMatch(cand, pos, bestLen int) int {
	chain, lookahead := d.cfg.chain, len(d.data)-pos
	if bestLen >= d.cfg.good {
		chain >>= 2
	}
	maxLen := min(zMaxMatch, lookahead)
	nice, limit := min(d.cfg.nice, maxLen), max(pos-zMaxDist, 0)
	for {
		n := 0
		for n < maxLen && d.data[cand+n] == d.data[pos+n] {
			n++
		}
		if n > bestLen {
			d.matchStart, bestLen = cand, n
			if n >= nice {
				break
			}
		}
		chain--
		if cand = int(d.prev[cand]); cand <= limit || chain == 0 {
			break
		}
	}
	return min(bestLen, lookahead)
}

// step does what deflate_fast and deflate_slow do at the top of each turn:
// slide the window when zlib's fill_window would, then enter pos in the hash
// chains and return the candidate to match against, or -1.
func (d *zDeflater) step(pos int) int {
	if min(len(d.data), d.base+2*zWindow)-pos < zMinLookahead && pos-d.base >= zWindow+zMaxDist {
		d.base += zWindow
	}
	if len(d.data)-pos < zMinMatch {
		return -1
	}
	if head := d.insert(pos); head > d.base && pos-head <= zMaxDist {
		return head
	}
	return -1
}

// tally records a symbol and reports whether the block is full.
func (d *zDeflater) tally(lc, dist int) bool {
	d.syms = append(d.syms, zSymbol{lc, dist})
	return len(d.syms) == zBlockSymbols
}

// deflateFast is deflate_fast (levels 1–3): take the longest match at once.
func (d *zDeflater) deflateFast() {
	pos := 0
	for pos < len(d.data) {
		length := 0
		if cand := d.step(pos); cand >= 0 {
			length = d.longestMatch(cand, pos, zMinMatch-1)
		}
		var full bool
		if length >= zMinMatch {
			full = d.tally(length-zMinMatch, pos-d.matchStart)
			if length <= d.cfg.lazy && len(d.data)-pos-length >= zMinMatch {
				for i := 1; i < length; i++ {
					d.insert(pos + i)
				}
			}
			pos += length
		} else {
			full = d.tally(int(d.data[pos]), 0)
			pos++
		}
		if full {
			d.flushBlock(pos, false)
		}
	}
	d.flushBlock(pos, true)
}

// deflateSlow is deflate_slow (levels 4–9): a match found at pos-1 is
// emitted only if the match at pos is not longer; otherwise pos-1 becomes a
// literal and the decision moves on.
func (d *zDeflater) deflateSlow() {
	pos, length, pending := 0, zMinMatch-1, false
	for pos < len(d.data) {
		cand := d.step(pos)
		prevLen, prevStart := length, d.matchStart
		length = zMinMatch - 1
		if cand >= 0 && prevLen < d.cfg.lazy {
			length = d.longestMatch(cand, pos, prevLen)
			if length == zMinMatch && pos-d.matchStart > zTooFar {
				length = zMinMatch - 1
			}
		}
		switch {
		case prevLen >= zMinMatch && length <= prevLen:
			full := d.tally(prevLen-zMinMatch, pos-1-prevStart)
			// The match started at pos-1; pos is already in the chains.
			for end := pos - 1 + prevLen; pos+1 < end; {
				if pos++; pos <= len(d.data)-zMinMatch {
					d.insert(pos)
				}
			}
			pos++
			pending, length = false, zMinMatch-1
			if full {
				d.flushBlock(pos, false)
			}
		case pending:
			if d.tally(int(d.data[pos-1]), 0) {
				d.flushBlock(pos, false)
			}
			pos++
		default:
			pending = true
			pos++
		}
	}
	if pending {
		d.tally(int(d.data[pos-1]), 0)
	}
	d.flushBlock(pos, true)
}

// flushBlock is _tr_flush_block: end the block at end and write it as a
// stored, fixed-code or dynamic-code block, whichever zlib's byte estimate
// makes smallest (fixed on a tie with dynamic, stored on a tie with both).
func (d *zDeflater) flushBlock(end int, last bool) {
	d.arena = d.arena[:0] // the last block's arrays are done with
	litFreq, distFreq := d.ints(286), d.ints(30)
	litFreq[256] = 1 // end of block
	for _, s := range d.syms {
		if s.dist == 0 {
			litFreq[s.lc]++
		} else {
			litFreq[257+zCode(zLengthBase, s.lc)]++
			distFreq[zCode(zDistBase, s.dist-1)]++
		}
	}
	litLens, litMax := zCodeLengths(litFreq, 15, &d.trees, d.ints(2*len(litFreq)+1))
	distLens, distMax := zCodeLengths(distFreq, 15, &d.trees, d.ints(2*len(distFreq)+1))
	blFreq := d.ints(19)
	countRun := func(sym, _, _ int) { blFreq[sym]++ }
	zLengthRuns(litLens[:litMax+1], countRun)
	zLengthRuns(distLens[:distMax+1], countRun)
	blLens, _ := zCodeLengths(blFreq, 7, &d.trees, d.ints(2*len(blFreq)+1))
	blCount := 19 // code-length code lengths sent: trailing zeros dropped, at least 4
	for blCount > 4 && blLens[zBlOrder[blCount-1]] == 0 {
		blCount--
	}

	// Sizes in bits after the 3-bit block header: trees.c's opt_len and static_len.
	dynBits, fixedBits := 5+5+4+3*blCount, 0
	for sym, f := range litFreq {
		extra := 0
		if sym > 256 {
			extra = zLengthExtra[sym-257]
		}
		dynBits += f * (litLens[sym] + extra)
		fixedBits += f * (zFixedLens[sym] + extra)
	}
	for code, f := range distFreq {
		dynBits += f * (distLens[code] + zDistExtra[code])
		fixedBits += f * (zFixedDistLens[code] + zDistExtra[code])
	}
	for sym, f := range blFreq {
		dynBits += f * (blLens[sym] + zBlExtra[sym])
	}
	dynBytes, fixedBytes := (dynBits+3+7)/8, (fixedBits+3+7)/8
	best := min(dynBytes, fixedBytes)

	final := 0
	if last {
		final = 1
	}
	switch stored := d.data[d.blockStart:end]; {
	case len(stored)+4 <= best && d.blockStart >= d.base:
		d.bits(final, 3)
		d.alignBits()
		d.out = binary.LittleEndian.AppendUint16(d.out, uint16(len(stored)))
		d.out = binary.LittleEndian.AppendUint16(d.out, ^uint16(len(stored)))
		d.out = append(d.out, stored...)
	case fixedBytes == best:
		d.bits(1<<1|final, 3)
		d.writeSymbols(zFixedLens, zFixedDistLens)
	default:
		d.bits(2<<1|final, 3)
		d.bits(litMax+1-257, 5)
		d.bits(distMax, 5)
		d.bits(blCount-4, 4)
		for _, sym := range zBlOrder[:blCount] {
			d.bits(blLens[sym], 3)
		}
		blCodes := zCodes(blLens, d.ints(len(blLens)))
		send := func(sym, extraBits, extra int) {
			d.bits(blCodes[sym], blLens[sym])
			d.bits(extra, extraBits)
		}
		zLengthRuns(litLens[:litMax+1], send)
		zLengthRuns(distLens[:distMax+1], send)
		d.writeSymbols(litLens[:litMax+1], distLens[:distMax+1])
	}
	if last {
		d.alignBits()
	}
	d.syms, d.blockStart = d.syms[:0], end
}

func (d *zDeflater) writeSymbols(litLens, distLens []int) {
	litCodes, distCodes := zCodes(litLens, d.ints(len(litLens))), zCodes(distLens, d.ints(len(distLens)))
	for _, s := range d.syms {
		if s.dist == 0 {
			d.bits(litCodes[s.lc], litLens[s.lc])
			continue
		}
		code := zCode(zLengthBase, s.lc)
		d.bits(litCodes[257+code], litLens[257+code])
		d.bits(s.lc-zLengthBase[code], zLengthExtra[code])
		code = zCode(zDistBase, s.dist-1)
		d.bits(distCodes[code], distLens[code])
		d.bits(s.dist-1-zDistBase[code], zDistExtra[code])
	}
	d.bits(litCodes[256], litLens[256])
}

// bits appends the n low bits of v, least significant first (RFC 1951).
func (d *zDeflater) bits(v, n int) {
	d.bitBuf |= uint64(v) << d.bitCount
	d.bitCount += uint(n)
	for ; d.bitCount >= 8; d.bitCount -= 8 {
		d.out = append(d.out, byte(d.bitBuf))
		d.bitBuf >>= 8
	}
}

func (d *zDeflater) alignBits() {
	if d.bitCount > 0 {
		d.bits(0, 8-int(d.bitCount))
	}
}

// RFC 1951's tables. A length code (symbol 257+code) or distance code covers
// the match lengths − 3 or distances − 1 from its base on, told apart by its
// extra bits; zCode finds it. The code-length alphabet sends its lengths in
// zBlOrder, and its repeat symbols 16–18 take extra bits too.
var (
	zLengthBase  = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 255}
	zLengthExtra = []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	zDistBase    = []int{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576}
	zDistExtra   = []int{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	zBlOrder     = []int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	zBlExtra     = []int{16: 2, 17: 3, 18: 7}

	// The fixed code's lengths (RFC 1951 3.2.6).
	zFixedDistLens = slices.Repeat([]int{5}, 30)
	zFixedLens     = slices.Concat(slices.Repeat([]int{8}, 144), slices.Repeat([]int{9}, 112),
		slices.Repeat([]int{7}, 24), slices.Repeat([]int{8}, 8))
)

func zCode(bases []int, v int) int {
	code, exact := slices.BinarySearch(bases, v)
	if !exact {
		code--
	}
	return code
}

// zCodeLengths is trees.c's build_tree and gen_bitlen: Huffman code lengths
// for freq, at most maxBits long, and the highest symbol used. zlib's choices
// are kept where Huffman codes are not unique: the heap order (ties go to
// the shallower subtree), at least two codes (padding with symbols 0, 1 or
// 2), and its way of shortening codes that come out too long. trees holds
// the working arrays, grown as needed and zeroed here, so that a stream's
// trees share them; lens, of 2·len(freq)+1 zeros, receives the lengths.
func zCodeLengths(freq []int, maxBits int, trees *[]int, lens []int) (_ []int, maxCode int) {
	size := 2*len(freq) + 1 // leaves, then inner nodes; heap[heapMax:] lists nodes root first
	if cap(*trees) < 4*size {
		*trees = make([]int, 4*size)
	}
	work := (*trees)[:4*size]
	clear(work)
	weight, depth, parent, heap := work[:size], work[size:2*size], work[2*size:3*size], work[3*size:]
	copy(weight, freq)
	heapLen, heapMax := 0, size
	maxCode = -1
	for sym, f := range freq {
		if f != 0 {
			heapLen++
			heap[heapLen], maxCode = sym, sym
		}
	}
	for heapLen < 2 {
		sym := 0
		if maxCode < 2 {
			maxCode++
			sym = maxCode
		}
		heapLen++
		heap[heapLen], weight[sym] = sym, 1
	}
	smaller := func(a, b int) bool {
		return weight[a] < weight[b] || weight[a] == weight[b] && depth[a] <= depth[b]
	}
	down := func(k int) {
		v := heap[k]
		for j := 2 * k; j <= heapLen; j *= 2 {
			if j < heapLen && smaller(heap[j+1], heap[j]) {
				j++
			}
			if smaller(v, heap[j]) {
				break
			}
			heap[k], k = heap[j], j
		}
		heap[k] = v
	}
	for k := heapLen / 2; k >= 1; k-- {
		down(k)
	}
	for node := len(freq); heapLen >= 2; node++ {
		n := heap[1]
		heap[1] = heap[heapLen]
		heapLen--
		down(1)
		m := heap[1]
		heap[heapMax-1], heap[heapMax-2] = n, m
		heapMax -= 2
		weight[node] = weight[n] + weight[m]
		depth[node] = max(depth[n], depth[m]) + 1
		parent[n], parent[m] = node, node
		heap[1] = node
		down(1)
	}
	heapMax--
	heap[heapMax] = heap[1]

	blCount, overflow := make([]int, maxBits+1), 0
	for _, n := range heap[heapMax+1:] {
		lens[n] = lens[parent[n]] + 1
		if lens[n] > maxBits {
			lens[n] = maxBits
			overflow++
		}
		if n <= maxCode {
			blCount[lens[n]]++
		}
	}
	if overflow == 0 {
		return lens[:len(freq)], maxCode
	}
	// Too long: move leaves down a level in pairs, then hand the new lengths
	// out again, longest to the least frequent.
	for ; overflow > 0; overflow -= 2 {
		b := maxBits - 1
		for blCount[b] == 0 {
			b--
		}
		blCount[b]--
		blCount[b+1] += 2
		blCount[maxBits]--
	}
	h := size
	for b := maxBits; b > 0; b-- {
		for n := blCount[b]; n > 0; {
			h--
			if heap[h] <= maxCode {
				lens[heap[h]] = b
				n--
			}
		}
	}
	return lens[:len(freq)], maxCode
}

// zLengthRuns is trees.c's scan_tree and send_tree: the code lengths lens as
// code-length symbols, with repeats (16: previous length 3–6 times, 17 and
// 18: zero 3–10 and 11–138 times) used where zlib uses them. emit gets each
// symbol with the extra bits that follow it.
func zLengthRuns(lens []int, emit func(sym, extraBits, extra int)) {
	prev, count, maxCount, minCount := -1, 0, 7, 4
	if lens[0] == 0 {
		maxCount, minCount = 138, 3
	}
	for n, cur := range lens {
		next := -1
		if n+1 < len(lens) {
			next = lens[n+1]
		}
		if count++; count < maxCount && cur == next {
			continue
		}
		switch {
		case count < minCount:
			for ; count > 0; count-- {
				emit(cur, 0, 0)
			}
		case cur != 0:
			if cur != prev {
				emit(cur, 0, 0)
				count--
			}
			emit(16, 2, count-3)
		case count <= 10:
			emit(17, 3, count-3)
		default:
			emit(18, 7, count-11)
		}
		count, prev = 0, cur
		switch {
		case next == 0:
			maxCount, minCount = 138, 3
		case cur == next:
			maxCount, minCount = 6, 3
		default:
			maxCount, minCount = 7, 4
		}
	}
}

// zCodes assigns canonical Huffman codes (RFC 1951 3.2.2) to lens, bit
// reversed because codes are sent most significant bit first, into codes,
// zeros as long as lens.
func zCodes(lens, codes []int) []int {
	var count, next [16]int
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	for b, code := 1, 0; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	for sym, l := range lens {
		if l > 0 {
			codes[sym] = int(bits.Reverse16(uint16(next[l])) >> (16 - l))
			next[l]++
		}
	}
	return codes
}
