// Command aixi-budget measures MC-AIXI-CTW's score on the Λ_one protocol
// against its planning budget, the curve docs/environments.md quotes:
// mc-aixi-ctw:simulations=K for each K of --sims (the other settings
// their defaults, or --with's), beside random and qlearning on the same
// items and episode seeds (anynt test's paired design), and any further
// agent specs of --extra (e.g. other horizons or depths at one budget).
//
//	go run ./scripts/aixi-budget [--tests 20] [--seed 1] [--sims 1,4,16,64,256]
//	    [--with horizon=2] [--extra 'mc-aixi-ctw:horizon=4']
//
// It prints one markdown row an agent: its mean score over the items with
// the 95% interval, its paired difference from random and from qlearning
// (mean, 95% interval, two-tailed p of the paired t test: package
// report's figures, as anynt test prints them), and its cost: the
// process's CPU time over the interactions it played (the environment's
// work and the test's included: random's is about their cost).
// Each agent takes the whole test alone (exam.Take on all cores), so its
// CPU time is its own; the outcomes do not depend on which agents take
// the test together, so the scores are those of one anynt test run with
// all of them (`anynt test --agent random,qlearning,mc-aixi-ctw:simulations=K,...
// --tests N --seed S`).
package main
