// Package aixi is MC-AIXI-CTW (Veness, Ng, Hutter, Uther and Silver 2011).
package aixi
