package report

import (
	"bufio"
	"html/template"
	"io"
)

// page is the HTML report: well-formed XHTML (every element closed, so
// that an XML parser can check it), with its style and its plots inline,
// so that the one file is the whole report. Everything is in its main
// landmark, so that a screen reader's reader can go straight to it.
var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 80em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
th, td { padding: 0.15em 0.6em; text-align: right; border-bottom: 1px solid #ddd; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
figure { display: inline-block; margin: 0.5em 1em 1em 0; vertical-align: top; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.85em; max-width: 40em; }
.key { display: inline-block; width: 1em; height: 0.8em; margin-right: 0.3em; }
</style>
</head>
<body>
<main>
<h1>anynt test report: {{.Protocol}}, seed {{.Seed}}</h1>
<p id="title">{{.Title}}</p>
<p id="settings">{{.Settings}}</p>
<p>{{.Score}}</p>
{{range .Key}}<p>{{.}}</p>
{{end}}<p>Agents and their colour in every plot:{{range .Agents}} <span class="key" style="background: {{.Colour}}"></span>{{.Name}}{{end}}</p>
{{range .Tables}}
<h2>{{.Title}}</h2>
{{template "table" .}}
{{end}}
<h2>Plots</h2>
{{range .Figures}}<figure id="{{.ID}}">
{{.SVG}}
<figcaption>{{.Caption}}</figcaption>
</figure>
{{end}}
{{with .Items}}<h2>{{$.ItemsHeading}}</h2>
<details><summary>{{$.ItemsSummary}}</summary>
{{template "table" .}}
</details>
{{end}}
{{range .Folded}}<h2>{{.Title}}</h2>
<details><summary>every item</summary>
{{template "table" .}}
</details>
{{end}}
</main>
</body>
</html>
{{define "table"}}<table>
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{end}}`))

// pageParts draws the figures as inline SVG and gives each agent its
// colour, for the page.
func pageParts(figs []Figure, agents []Agent) ([]htmlFigure, []htmlAgent, error) {
	var hf []htmlFigure
	for _, f := range figs {
		svg, err := f.SVG()
		if err != nil {
			return nil, nil, err
		}
		// The SVG comes from gonum/plot, which escapes every text it
		// writes (html.EscapeString), so it is safe to put inline.
		hf = append(hf, htmlFigure{ID: f.ID, Caption: f.Caption, SVG: template.HTML(svg)})
	}
	var ha []htmlAgent
	for a, ag := range agents {
		ha = append(ha, htmlAgent{Name: ag.Name, Colour: template.CSS(Colour(a))})
	}
	return hf, ha, nil
}

type htmlFigure struct {
	ID, Caption string
	SVG         template.HTML
}

type htmlAgent struct {
	Name   string
	Colour template.CSS
}

// WriteHTML writes the report as one self-contained page: the header
// (version, test, seed, settings), the summary tables, and the plots as
// inline SVG drawn with gonum/plot, then the table of items.
func (r *Report) WriteHTML(w io.Writer) error {
	figs, err := r.Figures()
	if err != nil {
		return err
	}
	hf, agents, err := pageParts(figs, r.Agents)
	if err != nil {
		return err
	}
	// The tables of a row an item (the items, their scales) are folded
	// below the plots; the others, a row an agent, come first.
	all := r.Tables()
	var tables, folded []Table
	for _, t := range all[1:] {
		if t.PerItem {
			folded = append(folded, t)
		} else {
			tables = append(tables, t)
		}
	}
	bw := bufio.NewWriter(w)
	if err := page.Execute(bw, map[string]any{
		"Title": r.Title(), "Protocol": r.Protocol.Name, "Seed": r.Seed, "Settings": r.SettingsText(), "Score": r.scoreText(), "Key": r.keyLines(),
		"Agents": agents, "Tables": tables, "Figures": hf, "Items": all[0], "Folded": folded,
		"ItemsHeading": "Items", "ItemsSummary": "every item and each agent's score",
	}); err != nil {
		return err
	}
	return bw.Flush()
}
