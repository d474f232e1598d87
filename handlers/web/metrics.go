package web

import "github.com/prometheus/client_golang/prometheus"

// register registers cs with reg; a nil reg counts where nobody reads (tests
// that do not look).
func register(reg prometheus.Registerer, cs ...prometheus.Collector) error {
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}
