package runner

import (
	"reflect"
	"strings"

	"github.com/urfave/cli/v3"
)

// hideRepeatedDefaults hides the parser's own "(default: …)" for flags whose
// usage already says what the default is: "turn budget N (default:
// harness.max_turns)" followed by "(default: 0)" tells the user two
// different things, and the zero is only the "not set" marker.
func hideRepeatedDefaults(flags []cli.Flag) {
	for _, f := range flags {
		doc, ok := f.(cli.DocGenerationFlag)
		if !ok || !strings.Contains(doc.GetUsage(), "(default") {
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
