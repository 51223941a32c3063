// Package report writes analysis results: the JSON document of the output
// contract (DESIGN.md), readable text, and the other batch formats.
package report
