package nova

import (
	"fmt"
	"math"

	"k8s.io/apimachinery/pkg/api/resource"
)

var maxInt64 = resource.NewQuantity(math.MaxInt64, resource.DecimalSI)

// Total converts an extended resource quantity into an inventory total:
// "4", "2k" and "1Ki" are 4, 2000 and 1024. A quantity that is negative,
// not a whole number ("1.5", "500m") or above MaxInt is an error; zero is
// returned as is (the caller leaves such a class out).
func Total(quantity string) (int64, error) {
	q, err := resource.ParseQuantity(quantity)
	if err != nil {
		return 0, fmt.Errorf("%q is not a resource quantity", quantity)
	}
	if q.Sign() < 0 {
		return 0, fmt.Errorf("%s is negative; an inventory total cannot be", quantity)
	}
	v, ok := q.AsInt64()
	switch {
	case !ok && q.Cmp(*maxInt64) <= 0:
		return 0, fmt.Errorf("%s is not a whole number; an inventory total must be an integer", quantity)
	case !ok || v > MaxInt:
		return 0, fmt.Errorf("%s is above %d, the largest inventory total placement accepts", quantity, MaxInt)
	}
	return v, nil
}
