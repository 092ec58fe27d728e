package web

import (
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
	var a startJSON
	if !s.decode(w, r, startLimit(len(s.study.Design().Intro.Questions)), &a) {
		return
	}
	token, v, err := s.study.Start(study.Answers{Consent: a.Consent, Code: a.Code, Replies: a.Replies})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.remember(token, v.Participant)
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: token, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	writeJSON(w, http.StatusOK, toJSON(v))
}

func (s *server) view(w http.ResponseWriter, r *http.Request) {
	token, ok := s.token(w, r)
	if !ok {
		return
	}
	v, err := s.study.View(token)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.remember(token, v.Participant)
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
	participant, served := s.participant(token)
	if !served {
		// This process has not served the session a view (it restarted
		// since): the move answers a view it cannot vouch for, and the
		// time since that view is unknown. Serving the view again checks
		// the session and restarts the study's timer; the page, told 409,
		// fetches the view and the participant clicks again.
		v, err := s.study.View(token)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.remember(token, v.Participant)
		s.refuse(w, r, http.StatusConflict, "the server restarted since this view: fetch it again")
		return
	}
	if *m.Participant != participant {
		s.refuse(w, r, http.StatusForbidden, "the move is for another session than this browser's")
		return
	}
	var clientMs float64
	if m.ClientMs != nil {
		clientMs = *m.ClientMs
	}
	v, err := s.study.Move(token, study.Move{Seq: *m.Seq, Cell: *m.Cell, ClientMillis: clientMs})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSON(v))
}

// remember notes the participant of a session this process served.
func (s *server) remember(token string, participant int) {
	s.mu.Lock()
	s.participants[token] = participant
	s.mu.Unlock()
}

// participant is the participant of a session this process served.
func (s *server) participant(token string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.participants[token]
	return p, ok
}
