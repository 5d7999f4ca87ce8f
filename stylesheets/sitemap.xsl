<?xml version="1.0" encoding="UTF-8"?>
<!--
  sitemill's stylesheet for sitemaps (XSLT 1.0): a browser that opens a
  sitemap or a sitemap index written with "sitemill generate" with the bundled stylesheet
  shows it as a table. A urlset lists each URL with its lastmod, changefreq,
  priority and how many images and hreflang alternates it names; an index
  lists its sitemaps, each a link, with their lastmod. Written by sitemill;
  no scripts, no external resources.
-->
<xsl:stylesheet version="1.0"
    xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"
    xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
    xmlns:xhtml="http://www.w3.org/1999/xhtml"
    exclude-result-prefixes="sm image xhtml">
  <xsl:output method="html" version="4.0" encoding="UTF-8" indent="yes"
      doctype-system="about:legacy-compat"/>

  <xsl:template match="/">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>
          <xsl:choose>
            <xsl:when test="sm:sitemapindex">Sitemap index</xsl:when>
            <xsl:otherwise>Sitemap</xsl:otherwise>
          </xsl:choose>
        </title>
        <style>
          body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
          h1 { font-size: 1.4em; margin: 0 0 .3em; }
          p.summary { color: #555; margin: 0 0 1em; }
          table { border-collapse: collapse; width: 100%; }
          th, td { text-align: left; padding: .25em .6em; border-bottom: 1px solid #ddd; vertical-align: top; }
          th { background: #f3f3f3; }
          td.num, th.num { text-align: right; }
          td.loc { word-break: break-all; }
          a { color: #0645ad; }
          @media print { body { margin: 0; } a { color: inherit; } th { background: none; } }
        </style>
      </head>
      <body>
        <xsl:apply-templates select="sm:sitemapindex | sm:urlset"/>
      </body>
    </html>
  </xsl:template>

  <xsl:template match="sm:sitemapindex">
    <h1>Sitemap index</h1>
    <p class="summary">
      <span id="sitemap-count"><xsl:value-of select="count(sm:sitemap)"/></span>
      <xsl:text> sitemaps. Written by sitemill.</xsl:text>
    </p>
    <table id="sitemaps">
      <thead>
        <tr><th class="num">#</th><th>Sitemap</th><th>Last modified</th></tr>
      </thead>
      <tbody>
        <xsl:for-each select="sm:sitemap">
          <tr>
            <td class="num"><xsl:value-of select="position()"/></td>
            <td class="loc"><a href="{sm:loc}"><xsl:value-of select="sm:loc"/></a></td>
            <td><xsl:value-of select="sm:lastmod"/></td>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>

  <xsl:template match="sm:urlset">
    <xsl:variable name="images" select="count(sm:url/image:image)"/>
    <xsl:variable name="alternates" select="count(sm:url/xhtml:link)"/>
    <h1>Sitemap</h1>
    <p class="summary">
      <span id="url-count"><xsl:value-of select="count(sm:url)"/></span>
      <xsl:text> URLs</xsl:text>
      <xsl:if test="$images &gt; 0">, <xsl:value-of select="$images"/> images</xsl:if>
      <xsl:if test="$alternates &gt; 0">, <xsl:value-of select="$alternates"/> alternates</xsl:if>
      <xsl:text>. Written by sitemill.</xsl:text>
    </p>
    <table id="urls">
      <thead>
        <tr>
          <th class="num">#</th><th>URL</th><th>Last modified</th>
          <th>Change frequency</th><th class="num">Priority</th>
          <xsl:if test="$images &gt; 0"><th class="num">Images</th></xsl:if>
          <xsl:if test="$alternates &gt; 0"><th class="num">Alternates</th></xsl:if>
        </tr>
      </thead>
      <tbody>
        <xsl:for-each select="sm:url">
          <tr>
            <td class="num"><xsl:value-of select="position()"/></td>
            <td class="loc"><a href="{sm:loc}"><xsl:value-of select="sm:loc"/></a></td>
            <td><xsl:value-of select="sm:lastmod"/></td>
            <td><xsl:value-of select="sm:changefreq"/></td>
            <td class="num"><xsl:value-of select="sm:priority"/></td>
            <xsl:if test="$images &gt; 0">
              <td class="num"><xsl:value-of select="count(image:image)"/></td>
            </xsl:if>
            <xsl:if test="$alternates &gt; 0">
              <td class="num"><xsl:value-of select="count(xhtml:link)"/></td>
            </xsl:if>
          </tr>
        </xsl:for-each>
      </tbody>
    </table>
  </xsl:template>
</xsl:stylesheet>
