package compiler_test

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
)

func TestZZMem(t *testing.T) {
	name := os.Getenv("ZZFILE")
	if name == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(name)
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	t.Logf("start %d MB", m.HeapAlloc>>20)
	f, err := lang.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m)
	t.Logf("after parse %d MB", m.HeapAlloc>>20)
	p, err := compiler.Compile(f, compiler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m)
	t.Logf("after compile %d MB (program kept)", m.HeapAlloc>>20)
	out, _ := os.Create("/tmp/fe/heap.out")
	pprof.WriteHeapProfile(out)
	out.Close()
	runtime.KeepAlive(f)
	runtime.KeepAlive(p)
	runtime.KeepAlive(src)
}
