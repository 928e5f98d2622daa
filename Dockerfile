# nfd-fn as a KRM function image (kpt fn render / kustomize --enable-alpha-plugins).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /nfd-fn .

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /nfd-fn /usr/local/bin/nfd-fn
USER nobody
ENTRYPOINT ["/usr/local/bin/nfd-fn"]
