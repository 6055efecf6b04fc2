package knightstour

import (
	"bufio"
	"fmt"
	"io"
)

// SVGOptions controls WriteSVG. The zero value draws 32-pixel squares
// without move numbers.
type SVGOptions struct {
	Square  int  // side of a square in pixels; 0 means 32
	Numbers bool // write each square's move number in it
}

// WriteSVG draws t as an SVG picture: a checkered board, the path as a line
// through the centres of the squares in order (back to the start for a
// closed tour), the start marked by a green disc and the end by a red one,
// and with opts.Numbers the move numbers. The checkering is a pattern, so
// the file grows with the length of the tour, not with squares drawn.
func WriteSVG(w io.Writer, t Tour, opts SVGOptions) error {
	if w == nil {
		return fmt.Errorf("%w: WriteSVG to a nil io.Writer", ErrMisuse)
	}
	if t.Len() == 0 {
		return &TourError{-1, "an empty tour has nothing to draw"}
	}
	sq := opts.Square
	if sq <= 0 {
		sq = 32
	}
	width, height := t.cols*sq, t.rows*sq
	centre := func(i int) (x, y float64) {
		c := t.At(i)
		return (float64(c.Col) + 0.5) * float64(sq), (float64(c.Row) + 0.5) * float64(sq)
	}
	line := max(1, float64(sq)/12)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", width, height, width, height)
	fmt.Fprintf(bw, `<title>Knight's tour of a %dx%d board from %v</title>`+"\n", t.rows, t.cols, t.At(0))
	fmt.Fprintf(bw, `<defs><pattern id="checks" width="%d" height="%d" patternUnits="userSpaceOnUse">`, 2*sq, 2*sq)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="#f0d9b5"/>`, 2*sq, 2*sq)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="#b58863"/><rect x="%d" y="%d" width="%d" height="%d" fill="#b58863"/>`, sq, sq, sq, sq, sq, sq)
	fmt.Fprint(bw, "</pattern></defs>\n")
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="url(#checks)"/>`+"\n", width, height)
	fmt.Fprintf(bw, `<polyline fill="none" stroke="#1f3a93" stroke-width="%.1f" stroke-linejoin="round" stroke-opacity="0.85" points="`, line)
	for i := range t.Len() {
		x, y := centre(i)
		fmt.Fprintf(bw, "%g,%g ", x, y)
	}
	if t.closed() {
		x, y := centre(0)
		fmt.Fprintf(bw, "%g,%g", x, y)
	}
	fmt.Fprint(bw, "\"/>\n")
	r := float64(sq) / 4
	x, y := centre(0)
	fmt.Fprintf(bw, `<circle cx="%g" cy="%g" r="%g" fill="#2e8b57"><title>start %v</title></circle>`+"\n", x, y, r, t.At(0))
	x, y = centre(t.Len() - 1)
	fmt.Fprintf(bw, `<circle cx="%g" cy="%g" r="%g" fill="#c0392b"><title>end %v</title></circle>`+"\n", x, y, r, t.At(t.Len()-1))
	if opts.Numbers {
		// A white halo keeps the numbers legible where the path crosses them.
		fmt.Fprintf(bw, `<g font-family="sans-serif" font-size="%g" text-anchor="middle" dominant-baseline="central" fill="#111" stroke="#fff" stroke-width="%g" paint-order="stroke">`+"\n", float64(sq)/3, float64(sq)/14)
		for i := range t.Len() {
			x, y := centre(i)
			fmt.Fprintf(bw, `<text x="%g" y="%g">%d</text>`+"\n", x, y, i+1)
		}
		fmt.Fprint(bw, "</g>\n")
	}
	fmt.Fprint(bw, "</svg>\n")
	return bw.Flush()
}
