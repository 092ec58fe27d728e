package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/internal/stats"
)

// jsonTimes are the measured response times of an agent outside anynt.
type jsonTimes struct {
	Actions int     `json:"actions"`
	Mean    float64 `json:"mean_seconds"`
	Max     float64 `json:"max_seconds"`
}

// runOutside is run with an agent outside anynt: its episodes one after
// another on its process, each scored by its average reward over all its
// interactions (those after a fault count 0).
func runOutside(io *stdio, file string, fl runFlags) (err error) {
	if fl.trace {
		return usage(errors.New("--trace is for a built-in --agent"))
	}
	if err := fl.runSize.check(); err != nil {
		return err
	}
	e, err := loadEnv(file)
	if err != nil {
		return err
	}
	command := fl.outside.commands[0]
	g := newGuard()
	defer func() { err = g.stop(err) }() // after the agent's Close
	x, _, err := fl.outside.start(io, g, command, nil)
	if err != nil {
		return err
	}
	p := x.Process
	defer p.Close()
	player := env.NewPlayer(e)
	var scores []float64
	var times agentproto.Times
	var faults []error
	maxSteps := 0
	for i := range fl.episodes {
		ep := p.Episode(agentproto.Exercise{Name: file, Episode: i, Steps: fl.steps, Seed: fl.seed})
		run := player.Episode(ep, env.EpisodeSeed(fl.seed, i))
		total := 0.0
		for range fl.steps {
			reward := run.Interact()
			if ep.Fault() != nil {
				break
			}
			total += reward
		}
		run.End()
		scores = append(scores, total/float64(fl.steps))
		times.Merge(ep.Times())
		maxSteps = max(maxSteps, run.MaxSteps)
		f := ep.Fault()
		if f == nil {
			continue
		}
		faults = append(faults, f)
		if fl.outside.onFault == "stop" || errors.Is(f, agentproto.ErrTestTimeout) || errors.Is(f, agentproto.ErrInterrupted) || i == fl.episodes-1 {
			break
		}
		if err := p.Restart(); err != nil {
			faults = append(faults, err)
			break
		}
	}
	mean, ci95 := stats.MeanCI(scores)
	name := x.Name
	if fl.json {
		o := runOutcome{Version: versionString(), File: file, Agent: name, Episodes: len(scores), Steps: fl.steps, Seed: fl.seed,
			Mean: mean, CI95: ci(ci95[0], ci95[1], len(scores)), MaxSteps: maxSteps, Scores: scores, Bounds: []boundHit{},
			Command: command, Times: &jsonTimes{times.Actions, times.Mean().Seconds(), times.Max.Seconds()}}
		for _, f := range faults {
			o.Faults = append(o.Faults, f.Error())
		}
		if err := writeJSON(io.out, o); err != nil {
			return ioFailure(err)
		}
	} else {
		ms := func(d time.Duration) float64 { return d.Seconds() * 1000 }
		fmt.Fprintf(io.out, "%s: agent %s (--agent-cmd %q), %s of %s, seed %d\nmean %+.4f, 95%% CI %s\n%s\nresponse times: %d answers, mean %.3f ms, max %.3f ms\n",
			file, name, command, count(len(scores), "episode"), count(fl.steps, "interaction"), fl.seed, mean,
			ciText(ci95[0], ci95[1], len(scores)), scoreMeaning, times.Actions, ms(times.Mean()), ms(times.Max))
	}
	if len(faults) > 0 {
		return agentFault(errors.Join(faults...))
	}
	return nil
}
