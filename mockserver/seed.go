package mockserver

import (
	"math/rand/v2"
	"strconv"
	"time"
)

// SyntheticPaths is how many distinct pages SyntheticVisits draws from.
const SyntheticPaths = 2000

// SyntheticVisits generates n visits over the 90 days before end. The same n
// always gives the same visitors, pages and offsets from end, so counts in a
// test or a bug report can be reproduced exactly. The shape is that of a
// documentation site: a few pages take most views and a long tail is rarely
// read; visitors average eight visits each; some visitors are
// AI agents, and some are seen both as human and as AI (to exercise the
// deduplicated total).
func SyntheticVisits(n int, end time.Time) []Visit {
	if n <= 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(0x6d696e746c696679, uint64(n)))
	paths := syntheticPaths()
	popularity := rand.NewZipf(rng, 1.1, 4, SyntheticPaths-1)

	nVisitors := max(1, n/8)
	visitorIDs := make([]string, nVisitors)
	kinds := make([]uint8, nVisitors) // 0 human, 1 AI, 2 both
	for i := range visitorIDs {
		visitorIDs[i] = "visitor-" + strconv.Itoa(i+1)
		switch r := rng.IntN(100); {
		case r < 75:
			kinds[i] = 0
		case r < 93:
			kinds[i] = 1
		default:
			kinds[i] = 2
		}
	}

	const span = 90 * 24 * time.Hour
	start := end.Add(-span)
	step := span / time.Duration(n)
	visits := make([]Visit, n)
	for i := range visits {
		v := rng.IntN(nVisitors)
		ai := kinds[v] == 1 || (kinds[v] == 2 && rng.IntN(2) == 0)
		// One slot per visit keeps the output in time order.
		at := start.Add(time.Duration(i) * step)
		if step > 1 {
			at = at.Add(time.Duration(rng.Int64N(int64(step))))
		}
		visits[i] = Visit{
			VisitorID: visitorIDs[v],
			Path:      paths[popularity.Uint64()],
			AI:        ai,
			Time:      at,
		}
	}
	return visits
}

// syntheticPaths lists plausible documentation pages, most-read first.
func syntheticPaths() []string {
	paths := []string{
		"/", "/quickstart", "/installation", "/api-reference/introduction",
		"/guides/authentication", "/guides/pagination", "/concepts/projects",
		"/changelog",
	}
	sections := []string{"guides", "api-reference", "concepts", "integrations", "sdks", "troubleshooting"}
	for i := 1; len(paths) < SyntheticPaths; i++ {
		paths = append(paths, "/"+sections[i%len(sections)]+"/topic-"+strconv.Itoa(i))
	}
	return paths
}
