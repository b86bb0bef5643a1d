package mockserver

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ParseFault reads the compact spec used by the -fault flag, the control
// API and FaultHeader: comma-separated items, each a kind or key=value.
//
//	status=503                    answer 503 (not processed)
//	status=429,retry-after=30s    answer 429 with Retry-After: 30
//	status=429,retry-after=0      answer 429 with Retry-After: 0
//	status=504,processed          create the job, then answer 504
//	latency=250ms  slow=2s        delay the answer; trickle the body
//	close  reset  truncate  html  the other kinds, by name
//	route=create-job,times=2      which route, how many requests
//	p=0.1                         probability per request
func ParseFault(spec string) (FaultRule, error) {
	var rule FaultRule
	var errs []error
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, value, hasValue := strings.Cut(item, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		if !hasValue {
			if n, err := strconv.Atoi(key); err == nil {
				rule.Kind, rule.Status = FaultStatus, n
				continue
			}
			switch key {
			case "processed", "after-processing":
				rule.AfterProcessing = true
			default:
				rule.Kind = FaultKind(key)
			}
			continue
		}
		var err error
		switch key {
		case "route":
			rule.Route = value
		case "kind":
			rule.Kind = FaultKind(strings.ToLower(value))
		case "status":
			rule.Kind = FaultStatus
			rule.Status, err = strconv.Atoi(value)
		case "retry-after":
			rule.RetryAfter, err = parseSeconds(value)
			// 0 is a value to send, not "unset": a 429 would default to 1s.
			rule.RetryAfterZero = err == nil && rule.RetryAfter == 0
		case "delay":
			rule.Delay, err = time.ParseDuration(value)
		case "latency":
			rule.Kind = FaultLatency
			rule.Delay, err = time.ParseDuration(value)
		case "slow":
			rule.Kind = FaultSlowBody
			rule.Delay, err = time.ParseDuration(value)
		case "times":
			rule.Times, err = strconv.Atoi(value)
		case "p", "probability":
			rule.Probability, err = strconv.ParseFloat(value, 64)
		default:
			err = errors.New("unknown key")
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%q: %w", item, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return FaultRule{}, fmt.Errorf("mockserver: fault %q: %w", spec, err)
	}
	if err := rule.validate(); err != nil {
		return FaultRule{}, fmt.Errorf("mockserver: fault %q: %w", spec, err)
	}
	return rule, nil
}

// parseSeconds accepts "30" (seconds, as in a Retry-After header) or "30s".
func parseSeconds(s string) (time.Duration, error) {
	if n, err := strconv.Atoi(s); err == nil {
		return time.Duration(n) * time.Second, nil
	}
	return time.ParseDuration(s)
}

func (r FaultRule) validate() error {
	var errs []error
	if r.Route == RouteBundleDownload && !storageFaultKind(r.Kind) {
		errs = append(errs, fmt.Errorf("route %s takes status, close, reset, truncate and latency faults", RouteBundleDownload))
	}
	if r.Route != "" && r.Route != "*" && r.Route != RouteBundleDownload && !slices.ContainsFunc(apiRoutes, func(rt *route) bool { return rt.name == r.Route }) {
		errs = append(errs, fmt.Errorf("unknown route %q (want a route name such as %s, %s or %s, or *)", r.Route, RouteCreateJob, RouteVisitors, RouteTriggerDeployment))
	}
	switch {
	case !slices.Contains(faultKinds, r.Kind):
		errs = append(errs, fmt.Errorf("unknown fault kind %q", r.Kind))
	case r.Kind == FaultStatus && (r.Status < 400 || r.Status > 599):
		errs = append(errs, fmt.Errorf("status %d is not an error status (400-599)", r.Status))
	case r.Kind == FaultLatency && r.Delay <= 0:
		errs = append(errs, errors.New("latency needs a positive delay"))
	}
	if r.Delay < 0 || r.RetryAfter < 0 {
		errs = append(errs, errors.New("durations must not be negative"))
	}
	if r.RetryAfterZero && r.RetryAfter != 0 {
		errs = append(errs, errors.New("RetryAfterZero and a non-zero RetryAfter contradict each other"))
	}
	if r.AfterProcessing && r.Kind != FaultStatus {
		errs = append(errs, errors.New("processed applies to status faults only"))
	}
	if r.Times < 0 {
		errs = append(errs, errors.New("times must not be negative"))
	}
	if r.Probability < 0 || r.Probability > 1 || r.Probability != r.Probability {
		errs = append(errs, errors.New("probability must be between 0 and 1"))
	}
	return errors.Join(errs...)
}

// String gives the rule back in ParseFault's syntax.
func (r FaultRule) String() string {
	var items []string
	if r.Route != "" {
		items = append(items, "route="+r.Route)
	}
	switch r.Kind {
	case FaultStatus:
		items = append(items, "status="+strconv.Itoa(r.Status))
		if r.RetryAfter > 0 {
			items = append(items, "retry-after="+r.RetryAfter.String())
		} else if r.RetryAfterZero {
			items = append(items, "retry-after=0")
		}
		if r.AfterProcessing {
			items = append(items, "processed")
		}
	case FaultLatency, FaultSlowBody:
		items = append(items, string(r.Kind)+"="+r.Delay.String())
	default:
		items = append(items, string(r.Kind))
	}
	if r.Times > 0 {
		items = append(items, "times="+strconv.Itoa(r.Times))
	}
	if r.Probability > 0 {
		items = append(items, "p="+strconv.FormatFloat(r.Probability, 'g', -1, 64))
	}
	return strings.Join(items, ",")
}
