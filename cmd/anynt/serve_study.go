package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/anynt/anynt/study"
)

// openServedStudy opens the database for this process alone (a second
// server would answer half of a session's moves with the other's sequence
// numbers): with its stored study when it has one and no flag describes a
// study, else with the study the flags describe, which an existing study
// must equal.
func openServedStudy(fl serveFlags) (*study.Study, error) {
	if len(fl.draw.files) == 0 && firstGiven(&fl.draw.all, &fl.intro) == "" {
		s, err := study.OpenHeld(fl.db, nil)
		if err == nil {
			return s, nil
		}
		if !errors.Is(err, study.ErrNoStudy) {
			return nil, studyError(err)
		}
	}
	d, err := serveDesign(fl)
	if err != nil {
		return nil, err
	}
	s, err := study.OpenHeld(fl.db, &d)
	if err != nil {
		return nil, studyError(err)
	}
	return s, nil
}

// studyError gives study.OpenHeld's error its exit status: another study
// is a usage error (the flags do not describe the database), the rest (a
// database another server holds among them) a file that could not be read
// or written.
func studyError(err error) error {
	switch {
	case errors.Is(err, study.ErrOtherDesign):
		return usage(fmt.Errorf("--db %w; give the flags that made it, or none to go on with it, or another --db", err))
	case errors.Is(err, study.ErrHeld):
		return ioFailure(fmt.Errorf("--db %w; stop that server first, or serve another --db (anynt results may read it meanwhile)", err))
	}
	return ioFailure(fmt.Errorf("--db %w", err))
}

// serveDesign draws the test the flags describe, as anynt test does, with
// the intro.
func serveDesign(fl serveFlags) (study.Design, error) {
	t := fl.draw
	if err := t.check(); err != nil {
		return study.Design{}, err
	}
	if err := checkBound("--tests", t.tests, 1, maxTests); err != nil {
		return study.Design{}, err
	}
	if t.protocol != "lambda-one" {
		t.tests = 1 // a battery is one test; check refused --tests
	}
	intro, err := serveIntro(fl)
	if err != nil {
		return study.Design{}, err
	}
	p := protocols[t.protocol]
	items, err := p.items(t)
	if err != nil {
		return study.Design{}, err
	}
	d := study.Design{Version: versionString(), Protocol: t.protocol, Complexity: p.report.Complexity,
		Strata: string(p.report.Strata), Seed: t.seed, Tests: t.tests, Items: items, Intro: intro}
	if p.settings != nil {
		d.Settings = p.settings(t)
	}
	return d, nil
}

// serveIntro reads the consent text and checks the questions.
func serveIntro(fl serveFlags) (study.Intro, error) {
	intro := study.Intro{AskCode: fl.askCode}
	if fl.consent != "" {
		text, err := readText(fl.consent, maxConsentBytes)
		if err != nil {
			return intro, err
		}
		if strings.TrimSpace(text) == "" {
			return intro, usage(fmt.Errorf("--consent %s is empty; a participant would accept nothing", fl.consent))
		}
		intro.Consent = text
	}
	if len(fl.questions) > maxQuestions {
		return intro, usage(fmt.Errorf("--question is given %d times; at most %d", len(fl.questions), maxQuestions))
	}
	for i, q := range fl.questions {
		q = strings.TrimSpace(q)
		if q == "" || len(q) > maxQuestionLen || !utf8.ValidString(q) {
			return intro, usage(fmt.Errorf("--question %d must be UTF-8 text of 1 to %d bytes", i+1, maxQuestionLen))
		}
		intro.Questions = append(intro.Questions, q)
	}
	return intro, nil
}
