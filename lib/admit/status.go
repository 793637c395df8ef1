package admit

import "sort"

// PoolStatus is the visible state of one pool (§43.3: occupied, queued,
// uncertain and configured slots per model and pool).
type PoolStatus struct {
	ID             string           `json:"id"`
	MaxInFlight    int              `json:"max_in_flight"`
	Reserved       int              `json:"foreground_reserved_slots"`
	Occupied       int              `json:"occupied"`
	ShadowOccupied int              `json:"shadow_occupied"`
	Queued         int              `json:"queued"`
	QueueCapacity  int              `json:"queue_capacity"`
	Draining       bool             `json:"draining"`
	Capacities     []CapacityStatus `json:"capacities"`
}

// CapacityStatus is one capacity identity with the model ids aliased to it.
type CapacityStatus struct {
	ID          string   `json:"id"`
	Models      []string `json:"models"`
	MaxInFlight int      `json:"max_in_flight"`
	Occupied    int      `json:"occupied"`
}

// Status returns a snapshot of every pool.
func (a *Admission) Status() []PoolStatus {
	a.mu.Lock()
	defer a.mu.Unlock()
	byPool := map[string]map[string][]string{}
	for model, rt := range a.route {
		if byPool[rt.pool] == nil {
			byPool[rt.pool] = map[string][]string{}
		}
		byPool[rt.pool][rt.capacity] = append(byPool[rt.pool][rt.capacity], model)
	}
	var out []PoolStatus
	for id, p := range a.pools {
		ps := PoolStatus{ID: id, MaxInFlight: p.limit, Reserved: p.reserved, Occupied: p.occupied,
			ShadowOccupied: p.shadowOccupied, Queued: len(p.queue), QueueCapacity: p.queueCap, Draining: p.occupied > p.limit}
		for capID, models := range byPool[id] {
			sort.Strings(models)
			c := a.models[capID]
			ps.Capacities = append(ps.Capacities, CapacityStatus{ID: capID, Models: models, MaxInFlight: c.limit, Occupied: c.occupied})
			if c.occupied > c.limit {
				ps.Draining = true
			}
		}
		sort.Slice(ps.Capacities, func(i, j int) bool { return ps.Capacities[i].ID < ps.Capacities[j].ID })
		out = append(out, ps)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
