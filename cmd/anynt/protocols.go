package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
)

// Ceilings of test's flags (docs/reports.md): beyond them a test would
// take days, or its outcomes (a score an episode) would fill memory.
const (
	maxTests        = 1000
	maxTestScores   = 10_000_000     // items × agents × episodes
	maxTestInteract = 10_000_000_000 // interactions of the whole test
)

// drawFlags are the flags that draw a test's items, which anynt test and
// anynt serve share: the protocol, its tests and seed, a battery's flags,
// and the files and folders named on the command line.
type drawFlags struct {
	protocol string
	tests    int
	seed     uint64
	battery  batteryFlags
	files    []string
	// all are the group's flags, which describe a study (serve); choice
	// --protocol and --tests, which the adaptive test refuses; lambdaOne
	// the flags only Λ_one reads.
	all, choice, lambdaOne flagGroup
}

func (d *drawFlags) register(f flagDefs) {
	f.in(&d.all, func(f flagDefs) {
		f.in(&d.choice, func(f flagDefs) {
			f.StringVar(&d.protocol, "protocol", "lambda-one", "the test: "+protocolList())
			f.in(&d.lambdaOne, func(f flagDefs) {
				f.IntVar(&d.tests, "tests", 20, fmt.Sprintf("the tests drawn (1 to %d)", maxTests))
			})
		})
		f.Uint64Var(&d.seed, "seed", 1, "the seed of every random choice")
		d.battery.register(f)
	})
}

// check refuses a protocol there is not, and a flag or a file that the
// protocol asked for does not read: a flag silently ignored would make
// the user believe it acted.
func (d *drawFlags) check() error {
	p, ok := protocols[d.protocol]
	if !ok {
		return usage(fmt.Errorf("--protocol: no protocol %q (the protocols: %s)", d.protocol, protocolList()))
	}
	own := p.flags(d)
	for _, n := range protocolNames() { // in order: the same command names the same flag
		if n == d.protocol {
			continue
		}
		for _, fl := range protocols[n].flags(d).flags {
			if fl.Changed && !slices.Contains(own.flags, fl) {
				return meaningless(fl.Name, "--protocol "+d.protocol)
			}
		}
	}
	if len(d.files) > 0 && d.protocol != "battery" {
		return usage(fmt.Errorf("--protocol %s draws its own environments; files are for --protocol battery", d.protocol))
	}
	return nil
}

// meaningless refuses a flag that the test asked for does not read.
func meaningless(flag, test string) error {
	return usage(fmt.Errorf("--%s means nothing to %s", flag, test))
}

// protocol is a kind of test: how its items are drawn, and what the
// report calls their complexity and how it groups them.
type protocol struct {
	about  string
	items  func(d drawFlags) ([]exam.Item, error)
	report report.Protocol
	// flags are the flags only this protocol reads.
	flags func(d *drawFlags) *flagGroup
	// settings names the protocol's own settings for the report; nil
	// when it has none beyond the seed and the tests.
	settings func(d drawFlags) string
}

// protocols are the tests anynt test gives, by --protocol.
var protocols = map[string]protocol{
	"lambda-one": {
		about: "the Λ_one of Insa-Cabrera et al. 2011: --tests tests of 7 exercises (3…9 cells), test k drawn from seed+k−1",
		items: func(d drawFlags) ([]exam.Item, error) {
			return exam.LambdaOneItems(d.seed, d.tests, versionString())
		},
		report: report.Protocol{Name: "lambda-one", Complexity: "K_approx", Strata: report.ByCells},
		flags:  func(d *drawFlags) *flagGroup { return &d.lambdaOne },
	},
	"battery": {
		about: "environments from FILEs and folders or the generator, drawn by complexity (below)",
		items: func(d drawFlags) ([]exam.Item, error) {
			return batteryItems(d.files, d.battery, d.seed)
		},
		report: report.Protocol{Name: "battery", Complexity: "bits", Strata: report.ByComplexity},
		settings: func(d drawFlags) string {
			return d.battery.describe(d.files)
		},
		flags: func(d *drawFlags) *flagGroup { return &d.battery.all },
	},
}

func protocolNames() []string {
	var names []string
	for n := range protocols {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func protocolList() string { return strings.Join(protocolNames(), ", ") }

// protocolHelp lists the protocols with what each gives, a line each.
func protocolHelp() string {
	var b strings.Builder
	for _, n := range protocolNames() {
		fmt.Fprintf(&b, "  %s: %s\n", n, protocols[n].about)
	}
	return b.String()
}
