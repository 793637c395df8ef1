package cards

import (
	"bytes"
	"encoding/json"

	"github.com/josecorral/fluzo/lib/tui/theme"
)

// genericCard is for tools no renderer knows: the arguments on one line,
// then the result as indented JSON, sanitized like any other text.
func genericCard(c *card, op Op) error {
	if len(op.Args) > 0 && string(op.Args) != "null" {
		var buf bytes.Buffer
		if err := json.Compact(&buf, op.Args); err != nil {
			return &DecodeError{Record: safeLine(op.Tool) + " arguments", Reason: "is not valid JSON"}
		}
		c.subject = safeLine(buf.String())
	}
	out, ok := decodeOutcome(op)
	if !ok && len(op.Result) > 0 {
		return decode("result", op.Result, &out)
	}
	if ok && out.OK && len(out.Result) > 0 {
		var buf bytes.Buffer
		if err := json.Indent(&buf, out.Result, "", "  "); err == nil {
			c.body = plainRows(safeLines(buf.String()), theme.Panel)
		}
	}
	return nil
}

// undecodableCard replaces a card whose data did not decode: it names
// the tool and says what could not be read, instead of guessing.
func undecodableCard(op Op, err error) card {
	c := baseCard(Op{Tool: op.Tool, State: op.State, Rule: op.Rule, Reason: op.Reason, Waiting: op.Waiting})
	if c.status == stOK {
		c.label = "succeeded"
	}
	c.notices = append(c.notices, warningRow("cannot show this operation: "+safeLine(err.Error())))
	return c
}
