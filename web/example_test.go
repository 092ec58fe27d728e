package web_test

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
	"github.com/anynt/anynt/web"
)

// ExampleNew serves a study of one Λ_one test and starts a session the
// way the page does.
func ExampleNew() {
	dir, err := os.MkdirTemp("", "anynt-web")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	items, err := exam.LambdaOneItems(2, 1, "example")
	if err != nil {
		log.Fatal(err)
	}
	s, err := study.Open(filepath.Join(dir, "study.db"), &study.Design{
		Version: "example", Protocol: "lambda-one", Complexity: "K_approx", Strata: "cells",
		Seed: 2, Tests: 1, Items: items,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	srv := httptest.NewServer(web.New(s, web.Options{Title: "A study"}))
	defer srv.Close()
	jar, err := cookiejar.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	browser := &http.Client{Jar: jar}
	res, err := browser.Post(srv.URL+"/api/start", "application/json", strings.NewReader(`{"consent":true}`))
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	var v struct {
		Participant, Exercise int
		Exercises             []struct{ Steps int }
		Cells                 []struct{ Accessible bool }
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, "cookie:", res.Cookies()[0].Name)
	fmt.Printf("participant %d, exercise %d of %d: %d steps, %d cells\n",
		v.Participant, v.Exercise, len(v.Exercises), v.Exercises[0].Steps, len(v.Cells))
	// Output:
	// 200 OK cookie: anynt_session
	// participant 1, exercise 1 of 7: 20 steps, 3 cells
}
