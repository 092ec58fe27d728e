package web

import (
	"errors"
	"net/http"

	"github.com/anynt/anynt/study"
)

// route is an API path's one method and its handler.
type route struct {
	method string
	handle func(*server, http.ResponseWriter, *http.Request)
}

var apiRoutes = map[string]route{
	"/api/intro": {http.MethodGet, (*server).intro},
	"/api/start": {http.MethodPost, (*server).start},
	"/api/view":  {http.MethodGet, (*server).view},
	"/api/move":  {http.MethodPost, (*server).move},
}

// introJSON is what the page shows and asks before the test.
type introJSON struct {
	Version   string   `json:"version"`
	Consent   string   `json:"consent"`
	AskCode   bool     `json:"ask_code"`
	Questions []string `json:"questions"`
}

// startJSON is a participant's answers to the intro.
type startJSON struct {
	Consent bool     `json:"consent"`
	Code    string   `json:"code"`
	Replies []string `json:"replies"`
}

// moveJSON is a click. The fields are pointers so that a missing one is
// told apart from zero and refused.
type moveJSON struct {
	Participant *int     `json:"participant"`
	Seq         *int     `json:"seq"`
	Cell        *int     `json:"cell"`
	ClientMs    *float64 `json:"client_ms"`
}

// viewJSON is study.View as the page reads it.
type viewJSON struct {
	Participant int            `json:"participant"`
	Test        int            `json:"test"`
	Exercises   []exerciseJSON `json:"exercises"`
	Exercise    int            `json:"exercise"`
	Step        int            `json:"step"`
	Seq         int            `json:"seq"`
	Cells       []cellJSON     `json:"cells"`
	Last        *rewardJSON    `json:"last"`
	Over        bool           `json:"over"`
}

type exerciseJSON struct {
	Number int `json:"number"`
	Steps  int `json:"steps"`
	Done   int `json:"done"`
}

type cellJSON struct {
	Number     int      `json:"number"`
	Objects    []string `json:"objects"`
	Accessible bool     `json:"accessible"`
}

type rewardJSON struct {
	Exercise int     `json:"exercise"`
	Step     int     `json:"step"`
	Value    float64 `json:"value"`
	Sign     int     `json:"sign"`
}

// toJSON converts a view; lists are never null, so the page need not
// check.
func toJSON(v study.View) viewJSON {
	out := viewJSON{
		Participant: v.Participant, Test: v.Test, Exercise: v.Exercise, Step: v.Step, Seq: v.Seq, Over: v.Over,
		Exercises: make([]exerciseJSON, len(v.Exercises)),
		Cells:     make([]cellJSON, len(v.Cells)),
	}
	for i, x := range v.Exercises {
		out.Exercises[i] = exerciseJSON{x.Number, x.Steps, x.Done}
	}
	for i, c := range v.Cells {
		objects := c.Objects
		if objects == nil {
			objects = []string{}
		}
		out.Cells[i] = cellJSON{c.Number, objects, c.Accessible}
	}
	if v.Last != nil {
		out.Last = &rewardJSON{v.Last.Exercise, v.Last.Step, v.Last.Value, v.Last.Sign}
	}
	return out
}

func (s *server) intro(w http.ResponseWriter, r *http.Request) {
	in := s.study.Design().Intro
	questions := in.Questions
	if questions == nil {
		questions = []string{}
	}
	writeJSON(w, http.StatusOK, introJSON{s.study.Design().Version, in.Consent, in.AskCode, questions})
}

func (s *server) start(w http.ResponseWriter, r *http.Request) {
	if s.limitStart(w, r) {
		return
	}
	var a startJSON
	if !s.decode(w, r, startLimit(len(s.study.Design().Intro.Questions)), &a) {
		return
	}
	token, v, err := s.study.Start(study.Answers{Consent: a.Consent, Code: a.Code, Replies: a.Replies})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: token, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	writeJSON(w, http.StatusOK, toJSON(v))
}

func (s *server) view(w http.ResponseWriter, r *http.Request) {
	// A browser without the cookie has not started: the page's first
	// request of every visit is this one, and it is no refusal (a 403
	// would be logged in the browser's console on every first visit).
	if _, err := r.Cookie(cookieName); errors.Is(err, http.ErrNoCookie) {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	token, ok := s.token(w, r)
	if !ok {
		return
	}
	v, err := s.study.View(token)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSON(v))
}

func (s *server) move(w http.ResponseWriter, r *http.Request) {
	token, ok := s.token(w, r)
	if !ok {
		return
	}
	var m moveJSON
	if !s.decode(w, r, bodyLimit, &m) {
		return
	}
	if m.Participant == nil || m.Seq == nil || m.Cell == nil {
		s.refuse(w, r, http.StatusBadRequest, "a move needs participant, seq and cell")
		return
	}
	if *m.Participant < 1 {
		s.refuse(w, r, http.StatusBadRequest, "participant is a session's number, from 1")
		return
	}
	var clientMs float64
	if m.ClientMs != nil {
		clientMs = *m.ClientMs
	}
	v, err := s.study.Move(token, study.Move{Participant: *m.Participant, Seq: *m.Seq, Cell: *m.Cell, ClientMillis: clientMs})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSON(v))
}
