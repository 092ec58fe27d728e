package report_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/exam"
)

// An agent outside anynt (here the outcomes of random, given a command,
// times, a fault on item 2 and an episode cut by τ on items 4 and 5) has
// its response times, its episodes cut by τ and its faults in every form,
// and the built-in agent beside it has none.
func TestAnAgentOutsideAnyntInEveryForm(t *testing.T) {
	in := input(t, 1, exam.DefaultSettings, "random", "stay")
	in.Agents[1].Command = "python3 agent.py"
	n := len(in.Items)
	fault := &agentproto.Fault{Command: "python3 agent.py", Exercise: in.Items[1].Name, Step: 3, Kind: agentproto.ErrCrash,
		Detail: "exit status 3", Stderr: []string{"Traceback"}}
	for i := range n {
		in.Outcomes[n+i].Times = agentproto.Times{Actions: 10, Total: 20 * time.Millisecond, Max: 5 * time.Millisecond}
	}
	in.Outcomes[n+1].Fault = fault
	in.Outcomes[n+3].Cut, in.Outcomes[n+4].Cut = 1, 1
	r := build(t, in)

	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`agents random, stay (--agent-cmd "python3 agent.py")`,
		"stay   python3 agent.py  70       2.000      5.000     2                  1",
		"stay   " + in.Items[1].Name + "  " + fault.Short(),
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "Traceback") {
		t.Error("the faults table quotes the agent's standard error; the error message does")
	}

	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for k, line := range strings.Split(strings.TrimSpace(js.String()), "\n") {
		var o map[string]any
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatal(err)
		}
		_, timed := o["response_times"]
		_, cmd := o["agent_cmd"]
		outside := o["agent"] == "stay"
		if timed != outside || cmd != outside {
			t.Errorf("line %d: %s", k, line)
		}
		if f, _ := o["fault"].(string); (f != "") != (o["kind"] == "item" && outside && o["name"] == in.Items[1].Name) || (f != "" && f != fault.Error()) {
			t.Errorf("line %d has fault %q", k, f)
		}
		if o["kind"] == "summary" && outside && (o["faults"] != 1.0 || o["response_times"].(map[string]any)["actions"] != 70.0 ||
			o["response_times"].(map[string]any)["cut_by_tau"] != 2.0) {
			t.Errorf("summary %s", line)
		}
	}

	var c bytes.Buffer
	if err := r.WriteCSV(&c); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	last := len(rows[0]) - 13 // the scale's six columns and the horizon are last, empty without bounds
	if got := strings.Join(rows[0][last:], ","); got != "agent_cmd,response_actions,response_mean_seconds,response_max_seconds,response_cut_by_tau,fault,"+
		"optimum,random_expected,normalised,optimum_horizon,random_plays,random_se,horizon" {
		t.Fatalf("the last columns are %s", got)
	}
	if got := strings.Join(rows[1][last:], ","); got != ",,,,,,,,,,,," {
		t.Errorf("a built-in agent's row ends %q", got)
	}
	if got := strings.Join(rows[n+1][last:last+5], ","); got != "python3 agent.py,10,0.002,0.005,0" || rows[n+1][last+5] != "" {
		t.Errorf("the agent's first row ends %q", rows[n+1][last:])
	}
	if rows[n+4][last+4] != "1" {
		t.Errorf("the row of an item cut by τ ends %q", rows[n+4][last:])
	}
	if rows[n+2][last+5] != fault.Error() {
		t.Errorf("the faulted item's row ends %q", rows[n+2][last:])
	}
}
