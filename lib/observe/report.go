package observe

import (
	"encoding/json"
	"sort"

	"github.com/josecorral/fluzo/lib/telemetry"
)

// EvalReport summarises the dataset, keeping unlabelled agreement (the
// recommendation matched what the runtime did) apart from labelled
// accuracy (the recommendation matched a human label). Rates and
// latencies without samples are nil, never zero.
type EvalReport struct {
	V            int                       `json:"v"`
	Type         string                    `json:"type"` // laya.report
	Question     string                    `json:"question"`
	Observations int                       `json:"observations"`
	ByStatus     map[string]int            `json:"by_status"`
	Coverage     *float64                  `json:"coverage"` // answered / observations
	Agreement    Ratio                     `json:"unlabeled_agreement"`
	NoAction     int                       `json:"no_action"` // recommended, but the runtime recorded no action
	Accuracy     Ratio                     `json:"labeled_accuracy"`
	Confusion    map[string]map[string]int `json:"confusion"` // label -> recommended -> n
	LatencyP50MS *int64                    `json:"latency_p50_ms"`
	LatencyP95MS *int64                    `json:"latency_p95_ms"`
	Note         string                    `json:"note"`
}

// Ratio is a count with its sample size; Rate is nil without samples.
type Ratio struct {
	Matches int      `json:"matches"`
	Samples int      `json:"samples"`
	Rate    *float64 `json:"rate"`
}

func (r *Ratio) add(match bool) {
	r.Samples++
	if match {
		r.Matches++
	}
	v := float64(r.Matches) / float64(r.Samples)
	r.Rate = &v
}

// Report evaluates recs for one question (an answer key, for example
// telemetry.QuestionNextAction).
func Report(recs []EvalRecord, question string) EvalReport {
	rep := EvalReport{V: 1, Type: "laya.report", Question: question, ByStatus: map[string]int{}, Confusion: map[string]map[string]int{},
		Note: "unlabelled agreement compares with what the runtime did, not with the right answer"}
	var lat []int64
	for _, r := range recs {
		rep.Observations++
		rep.ByStatus[r.Status]++
		if ms, ok := r.Observed["latency_ms"].(float64); ok && r.Status == StatusAnswered {
			lat = append(lat, int64(ms))
		}
		rec := recommendation(r, question)
		if r.Status != StatusAnswered || rec == "" {
			continue
		}
		actual, _ := r.ActualAction.(string)
		switch telemetry.LayaAgreement(rec, actual) {
		case telemetry.AgreementAgree:
			rep.Agreement.add(true)
		case telemetry.AgreementDisagree:
			rep.Agreement.add(false)
		case telemetry.AgreementNoAction:
			rep.NoAction++
		}
		if r.Label != nil {
			rep.Accuracy.add(rec == r.Label.Label)
			if rep.Confusion[r.Label.Label] == nil {
				rep.Confusion[r.Label.Label] = map[string]int{}
			}
			rep.Confusion[r.Label.Label][rec]++
		}
	}
	if rep.Observations > 0 {
		v := float64(rep.ByStatus[StatusAnswered]) / float64(rep.Observations)
		rep.Coverage = &v
	}
	if len(lat) > 0 {
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		p50, p95 := lat[(len(lat)-1)*50/100], lat[(len(lat)-1)*95/100]
		rep.LatencyP50MS, rep.LatencyP95MS = &p50, &p95
	}
	return rep
}

// recommendation reads the typed answer for question from the observed
// answers with the agent's definition (telemetry.RecommendedAction), so
// this report and the fluzo.laya.agreement metric count the same thing.
func recommendation(r EvalRecord, question string) string {
	raw, err := json.Marshal(r.Observed["answers"])
	if err != nil {
		return ""
	}
	return telemetry.RecommendedAction(raw, question)
}
