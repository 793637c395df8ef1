package runner

import (
	"reflect"
	"strings"

	"github.com/urfave/cli/v3"
)

// statesItsDefault reports whether a flag's usage already says what happens
// without it: a default, what 0 means, or that there is none (required).
func statesItsDefault(usage string) bool {
	for _, marker := range []string{"(default", "(0:", "(required)"} {
		if strings.Contains(usage, marker) {
			return true
		}
	}
	return false
}

// hideRepeatedDefaults hides the parser's own "(default: …)" for required
// flags (which have none) and for flags whose usage already says what the
// default is: "turn budget N (default:
// harness.max_turns)" followed by "(default: 0)" tells the user two
// different things, and the zero is only the "not set" marker.
func hideRepeatedDefaults(flags []cli.Flag) {
	for _, f := range flags {
		doc, ok := f.(cli.DocGenerationFlag)
		req, isReq := f.(cli.RequiredFlag)
		required := isReq && req.IsRequired()
		if !ok || !(required || statesItsDefault(doc.GetUsage())) {
			continue
		}
		// Every flag type is a generic FlagBase; reflection reaches its
		// HideDefault field without listing each instantiation.
		v := reflect.ValueOf(f)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			continue
		}
		if field := v.Elem().FieldByName("HideDefault"); field.IsValid() && field.CanSet() && field.Kind() == reflect.Bool {
			field.SetBool(true)
		}
	}
}
