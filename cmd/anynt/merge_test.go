package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// anynt merge of the shards' packs prints what the unsharded enumerate
// prints (its sources, its --json lines) and writes its pack, bit for bit.
func TestMergeIsTheUnshardedRun(t *testing.T) {
	dir := t.TempDir()
	quick := []string{"--max-bits", "58", "--episodes", "16", "--steps", "20"}
	var shards []string
	for _, k := range []string{"3", "1", "2"} {
		p := filepath.Join(dir, "s"+k+".pack")
		if _, errw, code := anynt(t, "", append([]string{"enumerate", "--shard", k + "/3", "--pack", p}, quick...)...); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", k, code, errw)
		}
		shards = append(shards, p)
	}
	whole := filepath.Join(dir, "whole.pack")
	wantFiles, _, _ := anynt(t, "", append([]string{"enumerate", "--pack", whole}, quick...)...)
	wantJSON, _, _ := anynt(t, "", append([]string{"enumerate", "--json"}, quick...)...)
	wantText, _, _ := anynt(t, "", append([]string{"enumerate"}, quick...)...)
	merged := filepath.Join(dir, "merged.pack")
	gotFiles, errw, code := anynt(t, "", append([]string{"merge", "--pack", merged}, shards...)...)
	if code != 0 || !strings.Contains(errw, "merged 3 packs into "+merged+" (the whole run): examined 1233") {
		t.Fatalf("merge: exit %d: %s", code, errw)
	}
	// The pack holds the records: neither run prints them.
	if gotFiles != "" || wantFiles != "" {
		t.Errorf("merge --pack printed\n%s\nenumerate --pack printed\n%s", gotFiles, wantFiles)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(merged)
	if string(a) != string(b) || len(a) == 0 {
		t.Error("the merged pack differs from the unsharded run's")
	}
	// --json asks for the records as well, each named by the pack.
	wantPacked, _, _ := anynt(t, "", append([]string{"enumerate", "--json", "--pack", filepath.Join(dir, "whole2.pack")}, quick...)...)
	gotPacked, _, _ := anynt(t, "", append([]string{"merge", "--json", "--pack", filepath.Join(dir, "merged2.pack")}, shards...)...)
	if gotPacked == "" || strings.ReplaceAll(gotPacked, "merged2.pack", "whole2.pack") != wantPacked {
		t.Errorf("merge --json --pack printed %d lines, or not enumerate --json --pack's (%d)", strings.Count(gotPacked, "\n"), strings.Count(wantPacked, "\n"))
	}
	// In a tree: shards 1 and 2 merged first, then with shard 3.
	part, root := filepath.Join(dir, "1-2.pack"), filepath.Join(dir, "root.pack")
	if out, errw, code := anynt(t, "", "merge", "--partial", "--pack", part, shards[2], shards[1]); code != 0 || out != "" || !strings.Contains(errw, "(shards 1–2 of 3)") {
		t.Fatalf("merge --partial: exit %d: %s%s", code, out, errw)
	}
	if _, errw, code := anynt(t, "", "merge", "--pack", root, shards[0], part); code != 0 {
		t.Fatalf("merge of a partial merge and a shard: exit %d: %s", code, errw)
	}
	if c, _ := os.ReadFile(root); string(c) != string(a) {
		t.Error("shards merged in a tree differ from the unsharded run's pack")
	}
	if _, errw, code := anynt(t, "", "merge", "--partial", shards[0]); code != exitUsage || !strings.Contains(errw, "give --pack FILE") {
		t.Errorf("--partial without --pack: exit %d: %s", code, errw)
	}
	if got, _, _ := anynt(t, "", append([]string{"merge", "--json"}, shards...)...); got != wantJSON {
		t.Errorf("merge --json differs from enumerate --json")
	}
	if got, _, _ := anynt(t, "", append([]string{"merge"}, shards...)...); got != wantText {
		t.Errorf("merge differs from enumerate")
	}
	// Environments are read back from the pack by their index.
	if out, errw, code := anynt(t, "", "run", merged+"#7", "--episodes", "2", "--steps", "10"); code != 0 || !strings.Contains(out, "#7: agent random") {
		t.Errorf("run PACK#7: exit %d: %s%s", code, out, errw)
	}
	if _, errw, code := anynt(t, "", "check", merged+"#99999"); code != exitIO || !strings.Contains(errw, "no record 99999") {
		t.Errorf("check PACK#99999: exit %d: %s", code, errw)
	}
	// Refusals: a shard missing; a pack that is none; an output that
	// exists.
	if _, errw, code := anynt(t, "", "merge", shards[0], shards[1]); code != exitFile || !strings.Contains(errw, "shards 2 of 3 are missing") {
		t.Errorf("a shard missing: exit %d: %s", code, errw)
	}
	if _, errw, code := anynt(t, "", "merge", corpusDir+"paper/example6.anynt"); code != exitFile || !strings.Contains(errw, "not an anynt pack") {
		t.Errorf("not a pack: exit %d: %s", code, errw)
	}
	if _, errw, code := anynt(t, "", "merge", filepath.Join(dir, "none.pack")); code != exitIO {
		t.Errorf("a pack that is not there: exit %d: %s", code, errw)
	}
	if _, errw, code := anynt(t, "", append([]string{"merge", "--pack", merged}, shards...)...); code != exitIO || !strings.Contains(errw, "exists") {
		t.Errorf("an output that exists: exit %d: %s", code, errw)
	}
}
